import Foundation
import MathAloud
import MathSpeech
import MathAloudVoice
import MathAloudRender

extension FileHandle {
    /// A child's pipe to its end, retrying interrupted reads (`readDataToEndOfFile()` traps on EINTR).
    func readToEndOrEmpty() -> Data { (try? InputFile.readToEnd(self)) ?? Data() }
}

// MathAloud benchmarks (build with -c release). Each benchmark runs its peer in the same invocation
// and prints the ratio, because absolute times on shared machines drift between runs.
//
//   swift run -c release MathAloudBench parse  [--corpus FILE] [--repeat N] [--peers DIR]
//   swift run -c release MathAloudBench speech [--corpus FILE] [--repeat N] [--peers DIR] [--big-batch LINES]
//   swift run -c release MathAloudBench voice  [--repeat N]   (N timed runs per figure, default 5 × 100)
//   swift run -c release MathAloudBench render [--corpus FILE] [--repeat N] [--peers DIR]
//   swift run -c release MathAloudBench stages [--corpus FILE] [--repeat N]   (each speech stage alone, no peers)
//   swift run -c release MathAloudBench documents [--repeat N]   (a 2,000-formula stream against one-shot
//     reading; convert on the README and the real documents of Tests/MathAloudDocumentsTests/Fixtures)
//   … parse-profile | semantics-profile | rules-profile | render-svg-profile | render-svg-nolabel-profile |
//     render-png-profile [--corpus FILE] [--repeat N] (one stage in a loop, for perf/callgrind; the
//     nolabel loop lays out and writes SVG without speaking, to tell the label from the rendering), rules-dump (speech and traces), semantics-dump
//     (semantic trees) and render-dump (box trees, SVG and PNG hashes), to diff two builds;
//     rulefile-dump [--words] FILE… (rule or word files parsed, or their errors), to diff two builds' parsers

struct Options {
    var corpus = "Tests/MathTeXTests/Fixtures/arxiv-public.txt"
    var repeatCount = 5
    var peers = "../shared/bench"
    var bigBatch = 0
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
        case "--big-batch": o.bigBatch = Int(v) ?? 0; i += 1
        default: StandardStream.error.write("unknown option \(a)\n"); exit(2)
        }
        i += 1
    }
    return o
}

func loadLines(_ path: String) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        StandardStream.error.write("cannot read \(path)\n")
        exit(3)
    }
    return text.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
}

/// Best-of-N seconds for one pass of `body` over the corpus (after one warm-up pass).
@inline(never)
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
    let data = pipe.fileHandleForReading.readToEndOrEmpty()
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

/// Parses the JSON a peer script prints (`{"name": {"perSecond": …, "accepted": …}}`).
func peerResults(_ output: String?) -> [String: [String: Any]] {
    guard let output, let line = output.split(separator: "\n").last,
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]] else { return [:] }
    return object
}

/// Peak resident memory (KB) and wall time of a command, measured by /usr/bin/time.
func measureProcess(_ arguments: [String], stdinFile: String) -> (seconds: Double, maxRSSKB: Int)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%e %M"] + arguments
    process.standardInput = FileHandle(forReadingAtPath: stdinFile)
    process.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    process.standardError = err
    do { try process.run() } catch { return nil }
    let data = err.fileHandleForReading.readToEndOrEmpty()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard fields.count >= 2, let s = Double(fields[fields.count - 2]), let kb = Int(fields[fields.count - 1]) else { return nil }
    return (s, kb)
}

func benchSpeech(_ o: Options) {
    let lines = loadLines(o.corpus)
    guard let speaker = try? Speaker(cacheCapacity: 0) else { print("cannot load the speaker"); exit(4) }
    var fallbacks = 0
    for line in lines where speaker.speak(tex: line).diagnostics.contains(where: { $0.id == "speech.missing-word" || $0.id == "tex.unknown-command" }) {
        fallbacks += 1
    }
    var sink = 0
    // The whole job, as a label or a peer's string needs it: the speech as plain text.
    let seconds = bestOf(o.repeatCount) {
        for line in lines { sink &+= speaker.speak(tex: line).text.utf8.count }
    }
    let ours = Double(lines.count) / seconds
    let structured = bestOf(o.repeatCount) {
        for line in lines { sink &+= speaker.speak(tex: line).speech.items.count }
    }
    // The same work spread over all cores (one shared, immutable Speaker), as a batch or a service does it.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let parallelSeconds = bestOf(o.repeatCount) {
        sink &+= lines.concurrentMap { speaker.speak(tex: $0).text.utf8.count }.reduce(0, &+)
    }
    print("corpus: \(o.corpus) (\(lines.count) formulas)")
    print(String(format: "mathaloud TeX → speech text (ClearSpeak), in process: best of %d: %.3f s, %.0f formulas/s", o.repeatCount, seconds, ours))
    print(String(format: "  (structured speech only, without the plain text: %.0f formulas/s)", Double(lines.count) / structured))
    print(String(format: "mathaloud TeX → speech on %d cores (one shared Speaker): best of %d: %.3f s, %.0f formulas/s", cores, o.repeatCount, parallelSeconds, Double(lines.count) / parallelSeconds))
    print("formulas with a read-by-name fallback or unknown command: \(fallbacks) (\(String(format: "%.2f", 100 * Double(fallbacks) / Double(lines.count))) %)")

    let env = ["NODE_PATH": "/usr/share/nodejs"]
    let katex = peerResults(run("node", ["\(o.peers)/katex-peer.js", o.corpus, "--json", "--repeat", String(o.repeatCount)], environment: env))
    if let a11y = katex["katex-a11y-string"], let perSecond = a11y["perSecond"] as? Double {
        print(String(format: "katex-a11y-string (peer): %d accepted, %.0f formulas/s → ratio %.2f×", a11y["accepted"] as? Int ?? 0, perSecond, ours / perSecond))
    } else {
        print("katex-a11y-string (peer): not run (needs node and Debian package katex)")
    }
    let mathra = peerResults(run("python3", ["\(o.peers)/mathra-peer.py", o.corpus, "--json", "--repeat", String(o.repeatCount)]))
    if let m = mathra["mathra"], let perSecond = m["perSecond"] as? Double {
        print(String(format: "mathra (peer): %d accepted, %.0f formulas/s → ratio %.2f×", m["accepted"] as? Int ?? 0, perSecond, ours / perSecond))
    } else {
        print("mathra (peer): not run (python3 -m pip install mathra)")
    }

    // The command line: batch throughput, cold start, and peak memory of a large batch.
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mathaloud").path
    guard FileManager.default.fileExists(atPath: binary) else {
        print("mathaloud binary not found beside the benchmark (build it: swift build -c release --product mathaloud)")
        return
    }
    let batchFile = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-bench-batch.jsonl").path
    func writeBatch(_ count: Int) {
        // Written in 1 MiB pieces: `--big-batch 1000000` is about 100 MB of JSON Lines.
        guard let file = try? OutputFile(URL(fileURLWithPath: batchFile)) else { return }
        var chunk = ""
        for i in 0..<count {
            chunk += "{\"id\":\(i),\"tex\":" + JSONString.quote(lines[i % lines.count]) + "}\n"
            if chunk.utf8.count > 1 << 20 { try? file.append(chunk); chunk = "" }
        }
        try? file.append(chunk)
        try? file.commit()
    }
    writeBatch(lines.count)
    if let m = measureProcess([binary, "speak", "--batch"], stdinFile: batchFile) {
        print(String(format: "mathaloud speak --batch (%d lines): %.2f s, %.0f formulas/s, peak RSS %.1f MB", lines.count, m.seconds,
                     Double(lines.count) / max(m.seconds, 0.001), Double(m.maxRSSKB) / 1024))
    }
    // Cold start of whole processes.
    let (how, starts) = processTimes([[binary, "speak", "x^2"], [binary, "parse", "x^2"]], runs: 40)
    for (name, times) in zip(["speak", "parse"], starts) where !times.isEmpty {
        print(String(format: "cold start of `mathaloud %@ 'x^2'` (%@, %d runs): median %.1f ms, min %.1f ms", name, how, times.count,
                     percentiles(times).median, Double(times.min()!) / 1e6))
    }
    if o.bigBatch > 0 {
        writeBatch(o.bigBatch)
        if let m = measureProcess([binary, "speak", "--batch"], stdinFile: batchFile) {
            print(String(format: "mathaloud speak --batch (%d lines): %.1f s, peak RSS %.1f MB", o.bigBatch, m.seconds, Double(m.maxRSSKB) / 1024))
        }
    }
    try? FileManager.default.removeItem(atPath: batchFile)
    if sink == 42 { print("") }
}

/// Where a speaker's start-up time goes: each loading step timed once cold (first in the process),
/// then the whole `Speaker()` construction averaged warm.
/// Runs `body` over `inputs` `repeatCount` times and prints a checksum (so the work is not optimised
/// away): the loop the `*-profile` modes give `perf` and callgrind.
@inline(never) func profileLoop<T>(_ repeatCount: Int, _ inputs: [T], _ body: (T) -> Int) {
    var sink = 0
    for _ in 0..<repeatCount { for x in inputs { sink &+= body(x) } }
    print(sink)
}

/// Each stage of TeX → speech alone, on inputs prepared by the stage before: parse, semantics, rules.
/// No peers; for finding where the time goes (`MathAloudBench stages --repeat 10`).
func benchStages(_ o: Options) {
    let lines = loadLines(o.corpus)
    guard let speaker = try? Speaker(cacheCapacity: 0) else { print("cannot load the speaker"); exit(4) }
    let parsed = lines.map { speaker.parser.parse($0, notation: .tex) }
    let trees = parsed.map { speaker.analyze($0) }
    var sink = 0
    // `STAGES_ONLY=parse|semantics|rules|turn|whole` times one loop alone (for a profiler: callgrind
    // with `--toggle-collect='*bestOf*'` then sees that loop's caches and branches only).
    let only = ProcessInfo.processInfo.environment["STAGES_ONLY"].flatMap { $0.isEmpty ? nil : $0 }
    func timed(_ name: String, _ body: () -> Void) -> Double { only == nil || only == name ? bestOf(o.repeatCount, body) : .nan }
    let parse = timed("parse") { for line in lines { sink &+= speaker.parser.parse(line, notation: .tex).diagnostics.count } }
    let analyze = timed("semantics") { for p in parsed { sink &+= speaker.analyze(p).nodeCount } }
    let rules = timed("rules") { for t in trees { sink &+= speaker.speak(semantics: t).description.items.count } }
    let whole = timed("whole") { for line in lines { sink &+= speaker.speak(tex: line).speech.items.count } }
    // The three stages one formula at a time, without `speak(tex:)`'s result: what the stages cost
    // together, beside what each costs alone in a loop of its own (the difference is the caches and
    // predictors the stages share, not the work).
    let inTurn = timed("turn") {
        for line in lines { sink &+= speaker.speak(semantics: speaker.analyze(speaker.parser.parse(line, notation: .tex))).description.items.count }
    }
    let n = Double(lines.count)
    print("corpus: \(o.corpus) (\(lines.count) formulas), best of \(o.repeatCount), one thread")
    for (name, s) in [("parse (TeX → tree)", parse), ("semantics (tree → meaning)", analyze), ("rules (meaning → speech)", rules),
                      ("the three stages in turn", inTurn), ("whole speak(tex:)", whole)] {
        print(name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: "%8.2f µs/formula %9.0f formulas/s", s / n * 1e6, n / s))
    }
    if sink == 42 { print("") }
}

func benchStartup() {
    func time<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        print(String(format: "%-42@ %7.3f ms", label as NSString, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6))
        return value
    }
    do {
        let files = time("embedded files dictionary") { EmbeddedSpeechResources.files }
        let resources = try time("SpeechResources(builtIn:)") { try SpeechResources(builtIn: files) }
        let chain = try time("lexicon chain (Locales/en/*.txt)") { try resources.lexiconChain(for: "en") }
        let style = try time("style clearspeak (rules + words)") { try resources.style("clearspeak", locale: "en") }
        _ = time("Lexicon(chain:styleWords:)") { Lexicon(chain: chain, styleWords: style.words) }
        let speaker = try time("Speaker() (all of the above again)") { try Speaker() }
        _ = time("first speak(tex: x^2)") { speaker.speak(tex: "x^2").text }
        _ = time("second speak(tex: y^2)") { speaker.speak(tex: "y^2").text }
        let n = Int(ProcessInfo.processInfo.environment["STARTUP_REPEAT"] ?? "50") ?? 50
        let warm = bestOf(1) { for _ in 0..<n { _ = try? Speaker() } }
        print(String(format: "%-42@ %7.3f ms", "Speaker() warm, mean of \(n)" as NSString, warm / Double(n) * 1000))
        // Loading one locale in a process (issue 13: ≤ 10 ms): its ClearSpeak speaker from resources that
        // loaded English ClearSpeak first (as a batch, the service or an app that speaks English and then
        // another language does; what English inherits is then parsed), and from fresh resources
        // (nothing loaded before it). Median and best of `LOCALE_REPEAT` runs, each on new resources.
        let runs = Int(ProcessInfo.processInfo.environment["LOCALE_REPEAT"] ?? "11") ?? 11
        print("one locale's ClearSpeak speaker in a process, median (best) of \(runs) runs:")
        print("  locale      after English        fresh")
        for locale in resources.locales where locale != "en" {
            var after: [Double] = [], fresh: [Double] = []
            for _ in 0 ..< runs {
                let warmed = try SpeechResources(builtIn: files)
                _ = try Speaker(resources: warmed)
                var start = DispatchTime.now().uptimeNanoseconds
                _ = try Speaker(resources: warmed, locale: LocaleTag(locale))
                after.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                let cold = try SpeechResources(builtIn: files)
                start = DispatchTime.now().uptimeNanoseconds
                _ = try Speaker(resources: cold, locale: LocaleTag(locale))
                fresh.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            after.sort(); fresh.sort()
            print(String(format: "  %-8@ %6.2f (%5.2f) ms  %6.2f (%5.2f) ms", locale as NSString,
                         after[runs / 2], after[0], fresh[runs / 2], fresh[0]))
        }
    } catch {
        print("cannot load: \(error)")
        exit(4)
    }
}

/// Whole-process times (nanoseconds) of each command, `runs` each after 5 warm-up runs: hyperfine
/// (Debian package) when it is installed, since it starts processes without a shell; Foundation's
/// `Process`, which adds its own spawning cost, otherwise. Returns which was used.
func processTimes(_ commands: [[String]], runs: Int) -> (how: String, times: [[UInt64]]) {
    func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let json = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-bench-\(getpid()).json").path
    defer { try? FileManager.default.removeItem(atPath: json) }
    if run("hyperfine", ["-N", "--warmup", "5", "--runs", String(runs), "--export-json", json]
                        + commands.map { $0.map(quoted).joined(separator: " ") }) != nil,
       let data = FileManager.default.contents(atPath: json),
       let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
       let results = object["results"] as? [[String: Any]], results.count == commands.count {
        return ("hyperfine", results.map { ($0["times"] as? [Double] ?? []).map { UInt64($0 * 1e9) } })
    }
    return ("Process", commands.map { c in timings(runs) { _ = run(c[0], Array(c.dropFirst())) } })
}

/// Median and 95th percentile (milliseconds) of timings in nanoseconds.
func percentiles(_ ns: [UInt64]) -> (median: Double, p95: Double) {
    let sorted = ns.sorted()
    let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
    return (Double(sorted[sorted.count / 2]) / 1e6, Double(p95) / 1e6)
}

/// Times `body` `runs` times (after 10 warm-up calls), in nanoseconds.
func timings(_ runs: Int, _ body: () -> Void) -> [UInt64] {
    for _ in 0..<10 { body() }
    return (0..<runs).map { _ in
        let t0 = DispatchTime.now().uptimeNanoseconds
        body()
        return DispatchTime.now().uptimeNanoseconds - t0
    }
}

/// TeX → WAV latency in process for a 20-word utterance (median, p95, real-time factor) beside
/// `espeak-ng -w` on the same text in the same run.
func benchVoice(_ o: Options) {
    let tex = #"\int_0^1 x^2\,dx = \frac{1}{3} + \sqrt{2}"#
    let runs = 100 * o.repeatCount
    guard let speaker = try? Speaker(cacheCapacity: 0) else { print("cannot load the speaker"); exit(4) }
    let voice: Voice
    do { voice = try Voice(locale: "en") } catch { print("\(error)"); exit(5) }
    let spoken = speaker.speak(tex: tex)
    let text = spoken.text
    let words = text.split(whereSeparator: { $0 == " " }).count
    guard let sample = try? voice.synthesize(.speech(spoken.speech)) else { print("synthesis failed"); exit(5) }
    print("utterance: \(tex)")
    print("speech (\(words) words): \(text)")
    print(String(format: "audio: %.2f s at %d Hz, voice %@", sample.audio.duration, sample.audio.sampleRate, sample.voice))

    var bytes = 0
    // The whole path: parse, semantics, rules, SSML, eSpeak-NG, RIFF encoding (speech cache off).
    let full = percentiles(timings(runs) {
        if let r = try? voice.synthesize(.speech(speaker.speak(tex: tex).speech)) { bytes &+= r.audio.wavData().count }
    })
    let speechOnly = percentiles(timings(runs) { bytes &+= speaker.speak(tex: tex).speech.items.count })
    let synthOnly = percentiles(timings(runs) {
        if let r = try? voice.synthesize(.text(text)) { bytes &+= r.audio.samples.count }
    })
    let ssml = voice.ssml(for: spoken.speech)
    let ssmlOnly = percentiles(timings(runs) {
        if let r = try? voice.synthesize(.ssml(ssml)) { bytes &+= r.audio.samples.count }
    })
    let wavOnly = percentiles(timings(runs) { bytes &+= sample.audio.wavData().count })
    let rtf = full.median / 1000 / sample.audio.duration
    print(String(format: "mathaloud TeX → WAV in process (%d runs): median %.2f ms, p95 %.2f ms; real-time factor %.4f (%.0f× faster than real time)",
                 runs, full.median, full.p95, rtf, 1 / rtf))
    print(String(format: "  parts: TeX → speech median %.3f ms; eSpeak-NG on the SSML (checked) median %.2f ms; RIFF encoding median %.3f ms",
                 speechOnly.median, ssmlOnly.median, wavOnly.median))
    print(String(format: "  eSpeak-NG on the plain text in process (no break): median %.2f ms, p95 %.2f ms", synthOnly.median, synthOnly.p95))

    // Peers in the same run: the espeak-ng command on the same text, and `mathaloud say`, both as whole
    // processes (start, initialise, synthesise, write the file).
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-bench-voice-\(getpid()).wav").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let processRuns = max(20, 6 * o.repeatCount)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mathaloud").path
    guard run("espeak-ng", ["-w", out, text]) != nil else {
        print("espeak-ng -w (peer): not run (install the Debian package espeak-ng)")
        return
    }
    guard run(binary, ["say", tex, "-o", out]) != nil else {
        print("mathaloud say: not run (build it: swift build -c release --product mathaloud)")
        return
    }
    let (how, times) = processTimes([["espeak-ng", "-w", out, text], [binary, "say", tex, "-o", out]], runs: processRuns)
    for (name, t) in zip(["espeak-ng -w (peer, same text)", "mathaloud say -o"], times) where !t.isEmpty {
        let p = percentiles(t)
        print(String(format: "%@ (%@, %d process runs): median %.2f ms, p95 %.2f ms", name, how, t.count, p.median, p.p95))
    }
    if bytes == 42 { print("") }
}

/// TeX → SVG + label (parse once, speak, lay out, write SVG with title/desc) and TeX → PNG + label,
/// beside mathra (TeX → speech + SVG + braille) in the same run.
func benchRender(_ o: Options) {
    let lines = loadLines(o.corpus)
    guard let renderer = try? Renderer() else { print("cannot load the renderer (fonts or rules)"); exit(4) }
    var errors = 0
    for line in lines where renderer.render(tex: line).diagnostics.containsError { errors += 1 }
    var sink = 0
    let svgSeconds = bestOf(o.repeatCount) {
        for line in lines { sink &+= renderer.svg(renderer.render(tex: line)).utf8.count }
    }
    let layoutSeconds = bestOf(o.repeatCount) {
        for line in lines { sink &+= Int(renderer.layout(renderer.speaker.parser.parse(line).root).width) }
    }
    // The same SVG with a fixed label: what the rendering costs without the speech engine.
    let unlabelledSeconds = bestOf(o.repeatCount) {
        for line in lines {
            sink &+= renderer.svg(renderer.render(renderer.speaker.parser.parse(line), display: nil, label: "label", speech: "label")).utf8.count
        }
    }
    let speechSeconds = bestOf(o.repeatCount) {
        for line in lines { sink &+= renderer.speaker.speak(parsed: renderer.speaker.parser.parse(line)).speech.items.count }
    }
    // Both cores: formulas split over threads (the CLI's batch mode could do the same).
    let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let parallelSeconds = bestOf(o.repeatCount) {
        sink &+= lines.concurrentMap(threads: threads) { renderer.svg(renderer.render(tex: $0)).utf8.count }.reduce(0, &+)
    }
    let pngSeconds = bestOf(max(1, o.repeatCount / 2)) {
        for line in lines { sink &+= ((try? renderer.png(renderer.render(tex: line)))?.count ?? 0) }
    }
    let svg = Double(lines.count) / svgSeconds
    print("corpus: \(o.corpus) (\(lines.count) formulas)")
    print(String(format: "mathaloud TeX → SVG + label: %d rendered without error, best of %d: %.3f s, %.0f formulas/s",
                 lines.count - errors, o.repeatCount, svgSeconds, svg))
    print(String(format: "  of which: TeX → speech only (parse + semantics + rules): %.0f formulas/s", Double(lines.count) / speechSeconds))
    print(String(format: "  of which: TeX → box tree only (parse + layout, no speech): %.0f formulas/s", Double(lines.count) / layoutSeconds))
    print(String(format: "  TeX → SVG without label (parse + layout + SVG, no speech): %.0f formulas/s", Double(lines.count) / unlabelledSeconds))
    print(String(format: "mathaloud TeX → SVG + label on %d threads: %.0f formulas/s", threads, Double(lines.count) / parallelSeconds))
    print(String(format: "mathaloud TeX → PNG + label (20 px): best of %d: %.3f s, %.0f formulas/s", max(1, o.repeatCount / 2), pngSeconds,
                 Double(lines.count) / pngSeconds))
    // The command line: `mathaloud render --batch` writing one SVG file per formula.
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mathaloud").path
    if FileManager.default.fileExists(atPath: binary) {
        let tmp = FileManager.default.temporaryDirectory
        let batchFile = tmp.appendingPathComponent("mathaloud-bench-render.jsonl").path
        // Into memory (/dev/shm) when there is one: the figure is about rendering, not the disk.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let outDir = (FileManager.default.fileExists(atPath: shm.path) ? shm : tmp).appendingPathComponent("mathaloud-bench-render-out").path
        var text = ""
        for (i, line) in lines.enumerated() { text += "{\"id\":\(i),\"tex\":" + JSONString.quote(line) + "}\n" }
        _ = FileManager.default.createFile(atPath: batchFile, contents: Data(text.utf8))
        if let m = measureProcess([binary, "render", "--batch", outDir], stdinFile: batchFile) {
            print(String(format: "mathaloud render --batch (%d lines → %d SVG files + manifest): %.2f s, %.0f formulas/s, peak RSS %.1f MB",
                         lines.count, lines.count, m.seconds, Double(lines.count) / max(m.seconds, 0.001), Double(m.maxRSSKB) / 1024))
        }
        try? FileManager.default.removeItem(atPath: batchFile)
        try? FileManager.default.removeItem(atPath: outDir)
    }
    let mathra = peerResults(run("python3", ["\(o.peers)/mathra-peer.py", o.corpus, "--json", "--repeat", String(o.repeatCount)]))
    if let m = mathra["mathra"], let perSecond = m["perSecond"] as? Double {
        print(String(format: "mathra (peer, TeX → speech + SVG + braille, one thread): %d accepted, %.0f formulas/s → ratio SVG+label %.2f× (one thread), %.2f× (%d threads)",
                     m["accepted"] as? Int ?? 0, perSecond, svg / perSecond, Double(lines.count) / parallelSeconds / perSecond, threads))
    } else {
        print("mathra (peer): not run (python3 -m pip install mathra)")
    }
    if sink == 42 { print("") }
}

let args = CommandLine.arguments.dropFirst()
switch args.first {
case "render":
    benchRender(parseOptions(args.dropFirst()))
case "render-svg-profile":
    // Only the TeX → SVG + label loop, for profiling (perf record … MathAloudBench render-svg-profile).
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    guard let renderer = try? Renderer() else { exit(4) }
    profileLoop(o.repeatCount, lines) { renderer.svg(renderer.render(tex: $0)).utf8.count }
case "render-svg-nolabel-profile":
    // TeX → SVG with a fixed label: parse, lay out and write, no speech (the label's share of
    // render-svg-profile is the difference).
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    guard let renderer = try? Renderer() else { exit(4) }
    profileLoop(o.repeatCount, lines) {
        renderer.svg(renderer.render(renderer.speaker.parser.parse($0), display: nil, label: "label", speech: "label")).utf8.count
    }
case "render-png-profile":
    // Only the TeX → PNG + label loop, for profiling.
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    guard let renderer = try? Renderer() else { exit(4) }
    profileLoop(o.repeatCount, lines) { ((try? renderer.png(renderer.render(tex: $0)))?.count ?? 0) }
case "render-dump":
    // For every corpus formula, in text and display style: the box tree, the diagnostics, and hashes of
    // its SVG (default and coloured on a background) and PNG: diff two builds' dumps to check that a
    // change to the typesetter or the writers changes no output.
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    var coloured = RenderOptions()
    coloured.color = RGBAColor(red: 0.2, green: 0.4, blue: 0.6)
    coloured.background = RGBAColor(red: 1, green: 1, blue: 0.9, alpha: 0.5)
    guard let renderer = try? Renderer(), let display = try? Renderer(options: { var d = RenderOptions(); d.display = true; return d }()),
          let colour = try? Renderer(options: coloured) else { exit(4) }
    func hash<S: Sequence<UInt8>>(_ bytes: S) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }
    var out = ""
    for (i, line) in lines.enumerated() {
        let text = renderer.render(tex: line), shown = display.render(tex: line)
        out += "## \(i) \(line)\n" + text.box.dump() + "display\n" + shown.box.dump()
        for d in text.diagnostics { out += "diagnostic \(d.id) \(d.severity) \(d.range.map { "\($0)" } ?? "-") \(d.message)\n" }
        out += "svg \(hash(renderer.svg(text).utf8)) \(hash(colour.svg(colour.render(tex: line), idPrefix: "f\(i)").utf8))"
        if i % 8 == 0 { out += " png " + ((try? renderer.png(text)).map { hash($0) } ?? "-") }
        out += "\n"
        if out.utf8.count > 1 << 20 { StandardStream.output.write(out); out = "" }
    }
    StandardStream.output.write(out)
case "parse-profile":
    // Only TeX parsing, for profiling.
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    let parser = FormulaParser()
    profileLoop(o.repeatCount, lines) { parser.parse($0, notation: .tex).diagnostics.count }
case "speak-profile":
    // The whole TeX → speech text path (what `speech` times in process), for `perf record -e cpu-clock`:
    // each formula's tree is fresh, as in use, where the stage profiles read trees built beforehand.
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    guard let speaker = try? Speaker(cacheCapacity: 0) else { exit(4) }
    profileLoop(o.repeatCount, lines) { speaker.speak(tex: $0).text.utf8.count }
case "semantics-profile":
    // Only the semantics stage, on trees parsed beforehand, for profiling.
    let o = parseOptions(args.dropFirst())
    guard let speaker = try? Speaker(cacheCapacity: 0) else { exit(4) }
    let parsed = loadLines(o.corpus).map { speaker.parser.parse($0, notation: .tex) }
    let analyzer = speaker.analyzer
    profileLoop(o.repeatCount, parsed) { analyzer.tree(of: $0.root).nodeCount }
case "stages":
    benchStages(parseOptions(args.dropFirst()))
case "rulefile-dump":
    // Every file named (rule files, and with --words word files) parsed with its examples: the
    // parse or the errors, one block per file. Diff two builds' dumps (over Rules/, Locales/ and the
    // rulefile fuzz corpus) to check that a change to the parsers changes no result or message
    // (with SWIFT_DETERMINISTIC_HASHING=1, so that dictionaries print in the same order).
    var words = false
    for path in args.dropFirst() {
        if path == "--words" { words = true; continue }
        guard let data = FileManager.default.contents(atPath: path) else { print("== \(path)\ncannot read"); continue }
        let text = String(decoding: data, as: UTF8.self)
        print("== \(path)")
        do {
            if words { print(String(reflecting: try WordTable(parsing: text, file: path))) } else {
                print(String(reflecting: try RuleFile(parsing: text, file: path, examples: true)))
            }
        } catch {
            print(error.errors.map(\.description).joined(separator: "\n"))
            if let partial = error.partialRules { print(String(reflecting: partial)) }
            if let partial = error.partial { print(String(reflecting: partial)) }
        }
    }
case "rules-profile":
    // Only the rules stage (meaning → speech) on trees prepared beforehand, for `perf stat` / `perf record`.
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    guard let speaker = try? Speaker(cacheCapacity: 0) else { exit(4) }
    let trees = lines.map { speaker.analyze(speaker.parser.parse($0, notation: .tex)) }
    profileLoop(o.repeatCount, trees) { speaker.speak(semantics: $0).description.items.count }
case "rules-dump":
    // Everything the rules stage produces for the corpus, in several styles and preferences, with
    // `--explain` traces: diff two builds' dumps to check that an optimisation changes no output.
    let o = parseOptions(args.dropFirst())
    let lines = loadLines(o.corpus)
    let configurations: [(String, [String: String])] = [
        ("clearspeak", [:]),
        ("clearspeak", ["Fractions": "Over", "Paren": "Speak", "Exponents": "OrdinalPower", "ImpliedTimes": "MoreImpliedTimes",
                        "Matrix": "SpeakColNum", "Roots": "RootEnd", "Trig": "ArcTrig", "Caps": "SayCaps", "AbsoluteValue": "AbsEnd"]),
        ("clearspeak", ["Fractions": "GeneralEndFrac", "Paren": "SpeakNestingLevel", "Functions": "None", "Sets": "woAll",
                        "VerticalLine": "SuchThat", "MultSymbolX": "Cross", "Log": "LnAsNaturalLog", "Enclosed": "EndEnclose"]),
        ("mathspeak", ["Verbosity": "Verbose"]),
        ("mathspeak", ["Verbosity": "Brief"]),
        ("mathspeak", ["Verbosity": "Superbrief"]),
    ]
    for (style, preferences) in configurations {
        guard let speaker = try? Speaker(style: SpeechStyleName(style), preferences: preferences, cacheCapacity: 0),
              let resources = try? SpeechResources(builtIn: EmbeddedSpeechResources.files),
              let compiled = try? resources.style(style, locale: "en"), let chain = try? resources.lexiconChain(for: "en") else { exit(4) }
        // The engine without fixed preferences (preferences passed per call) must say the same.
        let engine = SpeechEngine(style: compiled, lexicon: Lexicon(chain: chain, styleWords: compiled.words))
        print("== \(style) \(preferences.sorted { $0.key < $1.key })")
        for (i, line) in lines.enumerated() {
            let spoken = speaker.speak(tex: line, explain: i % 7 == 0)
            let perCall = engine.speak(spoken.semanticTree, preferences: speaker.preferences, trace: i % 7 == 0)
            if perCall.description != spoken.speech || perCall.trace != spoken.trace || perCall.diagnostics != spoken.speechDiagnostics {
                print("\(i): MISMATCH speak(_:preferences:): \(perCall.description.plainText)")
            }
            print("\(i): \(spoken.text)")
            print("  items: \(spoken.speech.items)")
            if !spoken.speechDiagnostics.isEmpty { print("  diagnostics: \(spoken.speechDiagnostics)") }
            for t in spoken.trace {
                print("  trace: \(t.depth) \(t.role) \(t.kind) \(t.text) \(t.properties.sorted { $0.key < $1.key }) \(t.rule ?? "-") \(t.location ?? "-") \(t.conditions) \(t.speech)")
            }
        }
    }
case "semantics-dump":
    // The semantic tree (with ranges) of every corpus line, to diff two builds (scripts/check-equivalence.sh);
    // each line is also written as MathML and read back, so the MathML reader's trees are compared too.
    let o = parseOptions(args.dropFirst())
    let parser = FormulaParser()
    guard let speaker = try? Speaker(cacheCapacity: 0) else { exit(4) }
    let analyzer = speaker.analyzer  // with English unit names, as English speech analyses
    let writer = MathMLWriter()
    for (i, line) in loadLines(o.corpus).enumerated() {
        let parsed = parser.parse(line, notation: .tex)
        print("\(i): \(parsed.diagnostics.map { "\($0.id)@\($0.range.map { "\($0)" } ?? "-")" })")
        print(analyzer.analyze(parsed.root).dump(ranges: true), terminator: "")
        let mathML = parser.parse(writer.write(parsed.root), notation: .mathml)
        print("\(i) mathml:")
        print(analyzer.analyze(mathML.root).dump(ranges: true), terminator: "")
    }
case "parse":
    benchParse(parseOptions(args.dropFirst()))
case "speech":
    benchSpeech(parseOptions(args.dropFirst()))
case "startup":
    benchStartup()
case "voice":
    benchVoice(parseOptions(args.dropFirst()))
case "documents":
    benchDocuments(parseOptions(args.dropFirst()))
default:
    print("usage: MathAloudBench parse|speech|startup|voice|render|documents|stages|parse-profile|speak-profile|semantics-profile|rules-profile|render-svg-profile|rules-dump|semantics-dump|render-dump|rulefile-dump [--corpus FILE] [--repeat N] [--peers DIR] [--big-batch LINES]")
    exit(args.isEmpty ? 0 : 2)
}
