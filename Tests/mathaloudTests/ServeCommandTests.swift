import Foundation
import Testing

/// `mathaloud serve` as a process: signals, reloads, exit codes, the deploy files and the scripts that
/// exercise it with real tools (nginx, schemathesis, kubernetes-validate, hadolint), which
/// scripts/install-deps.sh installs.
@Suite("mathaloud serve", .serialized)
struct ServeCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tools = root.appendingPathComponent(".build/python-tools/bin")

    /// A running `mathaloud serve` whose standard output and error are collected.
    final class Served: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()
        private(set) var port = 0
        private let readersDone = DispatchSemaphore(value: 0)

        init(_ arguments: [String]) throws {
            process.executableURL = mathaloudURL()
            process.arguments = ["serve", "--port", "0"] + arguments
            let o = Pipe(), e = Pipe()
            process.standardOutput = o
            process.standardError = e
            try launch(process)
            // One reading thread per pipe until the child closes it: a FileHandle `readabilityHandler`
            // left on a pipe that is later closed crashed the test process in libdispatch's event loop.
            for (pipe, isError) in [(o, false), (e, true)] {
                let handle = pipe.fileHandleForReading
                Thread { [self] in
                    while true {
                        let chunk = handle.availableBytes()
                        if chunk.isEmpty { break }
                        append(chunk, error: isError)
                    }
                    readersDone.signal()
                }.start()
            }
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let range = stderr.range(of: "listening on http://127.0.0.1:") {
                    port = Int(stderr[range.upperBound...].prefix { $0.isNumber }) ?? 0
                    if port > 0 { return }
                }
                if !process.isRunning { break }
                usleep(20_000)
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw TestFailure("serve did not start: \(stderr)")
        }

        private func append(_ d: Data, error: Bool) {
            lock.lock()
            if error { err.append(d) } else { out.append(d) }
            lock.unlock()
        }
        var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
        var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }

        func signal(_ s: Int32) { kill(process.processIdentifier, s) }

        /// Waits for the process to end and for its output to be read to the end.
        func waitUntilExit() {
            process.waitUntilExit()
            readersDone.wait()
            readersDone.wait()
        }

        func get(_ path: String) throws -> String {
            try ServeCommandTests.run("/usr/bin/curl", ["-sS", "http://127.0.0.1:\(port)\(path)"]).output
        }

        func waitForOutput(_ text: String, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if stdout.contains(text) { return true }
                usleep(20_000)
            }
            return false
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// Runs a program to its end; returns its status and output (standard error appended).
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try launch(p)
        let data = pipe.fileHandleForReading.readToEndRetrying()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func sigtermDrainsAndExitsZero() throws {
        let s = try Served([])
        #expect(try s.get("/healthz") == #"{"status":"ok"}"#)
        s.signal(SIGTERM)
        s.waitUntilExit()
        #expect(s.process.terminationStatus == 0)
        #expect(s.stdout.contains(#""event":"draining""#))
        #expect(s.stdout.contains(#""event":"stopped","cutOff":"0""#) || s.stdout.contains(#""cutOff":"0""#))
        // One JSON access-log line for the request, with its id.
        #expect(s.stdout.split(separator: "\n").contains { $0.contains(#""path":"/healthz""#) && $0.contains(#""id":""#) })
    }

    @Test func sighupReloadsRulesAndKeepsThemWhenAFileIsBroken() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-sighup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Locales/en"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try Served(["--rules-dir", dir.path])
        defer { s.signal(SIGKILL); s.waitUntilExit() }
        try "α  ALPHA WORD\n".write(to: dir.appendingPathComponent("Locales/en/symbols.txt"), atomically: true, encoding: .utf8)
        s.signal(SIGHUP)
        // A reload builds every engine of the rules directory again: under the whole suite's load on two
        // cores that took longer than the 10 s default now and then (the test's only flakiness). The
        // wait returns as soon as the line is there.
        #expect(s.waitForOutput(#""event":"rules-reloaded""#, seconds: 90))
        let spoken = try ServeCommandTests.run("/usr/bin/curl", ["-sS", "-H", "Content-Type: application/json", "--data-binary",
                                                                 #"{"tex": "\\alpha"}"#, "http://127.0.0.1:\(s.port)/v1/speech"])
        #expect(spoken.output.contains(#""speech":"ALPHA WORD""#), "\(spoken.output)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Rules/en"), withIntermediateDirectories: true)
        try "style ClearSpeak\nlocale en\nrule broken when\n".write(to: dir.appendingPathComponent("Rules/en/clearspeak.rules"),
                                                                    atomically: true, encoding: .utf8)
        s.signal(SIGHUP)
        #expect(s.waitForOutput(#""event":"rules-reload-failed""#, seconds: 90))
        #expect(s.stdout.contains("clearspeak.rules:3"))
        #expect(try s.get("/readyz") == #"{"status":"ready"}"#)
    }

    @Test func usageAndStartErrors() throws {
        let help = try runCLI(["serve", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--request-timeout") && help.stdout.contains("MATHALOUD_PORT"))
        #expect(try runCLI(["serve", "--port", "x"]).status == 2)
        #expect(try runCLI(["serve", "--nope"]).status == 2)
        #expect(try runCLI(["serve"], environment: ["MATHALOUD_THREADS": "0"]).status == 2)
        let missing = try runCLI(["serve", "--port", "0"], environment: ["MATHALOUD_MICROHTTPD_LIBRARY": "/nonexistent/libmicrohttpd.so"])
        #expect(missing.status == 7)
        #expect(missing.stderr.contains("cannot load libmicrohttpd"))
        // The other commands run without it: the library is opened only by serve.
        let speak = try runCLI(["speak", "x^2"], environment: ["MATHALOUD_MICROHTTPD_LIBRARY": "/nonexistent/libmicrohttpd.so"])
        #expect(speak.stdout == "x squared\n")
        let ldd = try ServeCommandTests.run("/usr/bin/ldd", [mathaloudURL().path])
        #expect(ldd.status == 0 && !ldd.output.contains("microhttpd"))
    }

    @Test func deployFilesPassTheirValidators() throws {
        let k8s = try FileManager.default.contentsOfDirectory(atPath: ServeCommandTests.root.appendingPathComponent("deploy/kubernetes").path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "deploy/kubernetes/" + $0 }
        #expect(k8s.count == 5)   // the service's four and the audit's Indexed Job (audit-job.yaml)
        let validate = ServeCommandTests.tools.appendingPathComponent("kubernetes-validate").path
        let kinds = try ServeCommandTests.run(validate, ["--strict"] + k8s)
        #expect(kinds.status == 0, "\(kinds.output)")
        for kind in ["deployment/mathaloud", "service/mathaloud", "horizontalpodautoscaler/mathaloud", "poddisruptionbudget/mathaloud"] {
            #expect(kinds.output.contains("passed for resource \(kind)"))
        }
        // The validator does catch mistakes.
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-bad-\(UUID().uuidString).yaml")
        try "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: two}\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        #expect(try ServeCommandTests.run(validate, ["--strict", bad.path]).status != 0)

        let hadolint = ServeCommandTests.tools.appendingPathComponent("hadolint").path
        let lint = try ServeCommandTests.run(hadolint, ["deploy/Dockerfile"])
        #expect(lint.status == 0, "\(lint.output)")
        let badDocker = FileManager.default.temporaryDirectory.appendingPathComponent("Dockerfile-\(UUID().uuidString)")
        try "FROM debian\nRUN apt-get install curl\n".write(to: badDocker, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: badDocker) }
        #expect(try ServeCommandTests.run(hadolint, [badDocker.path]).status != 0)

        let nginx = FileManager.default.fileExists(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : "/usr/bin/nginx"
        let syntax = try ServeCommandTests.run(nginx, ["-t", "-q", "-c", ServeCommandTests.root.appendingPathComponent("deploy/nginx.conf").path])
        #expect(syntax.status == 0, "\(syntax.output)")
    }

    @Test func nginxFailoverLosesNoRequest() throws {
        let r = try ServeCommandTests.run("/bin/bash", ["scripts/nginx-failover.sh", mathaloudURL().path, "9"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("non-2xx: 0"))
        #expect(r.output.contains("nginx-failover: passed"))
    }

    @Test func openAPIContract() throws {
        // ≥ 1,000 generated requests, 0 server errors, 0 schema violations (scripts/contract-test.sh).
        let r = try ServeCommandTests.run("/bin/bash", ["scripts/contract-test.sh", mathaloudURL().path, "60"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("No issues found"))
    }

    /// The README's `curl` examples, each run against a server on a free port: every line prints what
    /// the README says it prints.
    @Test func readmeCurlExamples() throws {
        let text = try String(contentsOf: ServeCommandTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [(command: String, expected: [String], line: Int)] = []
        var inConsole = false
        var current: (String, [String], Int)?
        for (i, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```console") { inConsole = true; continue }
            if inConsole && line.hasPrefix("```") { if let c = current { examples.append(c) }; current = nil; inConsole = false; continue }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                if let c = current { examples.append(c) }
                current = line.hasPrefix("$ curl") || line.contains("| curl") ? (String(line.dropFirst(2)), [], i + 1) : nil
            } else {
                current?.1.append(line)
            }
        }
        #expect(examples.count >= 12)
        let s = try Served([])
        defer { s.signal(SIGTERM); s.waitUntilExit() }
        for e in examples {
            let command = e.command.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(s.port)")
            let r = try ServeCommandTests.run("/bin/sh", ["-c", command])
            let got = r.output.trimmingCharacters(in: .newlines)
            #expect(got == e.expected.joined(separator: "\n"), "README.md:\(e.line): \(e.command)\n--- got\n\(got)")
        }
    }
}
