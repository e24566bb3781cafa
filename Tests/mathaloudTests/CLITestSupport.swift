import Foundation
import MathAloud

extension FileHandle {
    /// The pipe read to its end, retrying interrupted reads: `readDataToEndOfFile()` stops the whole
    /// test process when a signal (a child's SIGCHLD) interrupts it, as a CI run once showed.
    func readToEndRetrying() -> Data { (try? InputFile.readToEnd(self)) ?? Data() }

    /// What a readable pipe holds now (one read(2), retried when interrupted; `availableData` traps on EINTR).
    func availableBytes() -> Data { Data(Descriptor.available(fileDescriptor)) }
}

/// Runs the built `mathaloud` binary (next to the test bundle) with arguments and standard input.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// The `mathaloud` next to the test bundle, or `MATHALOUD_TEST_BINARY` when set (to run the CLI tests
/// against another build, e.g. to see a regression test fail on the code before its fix).
func mathaloudURL() -> URL {
    if let path = ProcessInfo.processInfo.environment["MATHALOUD_TEST_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Apple platforms the test bundle is nested: …/X.xctest/Contents/MacOS/X.
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("mathaloud").path), dir.path != "/" {
        dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent("mathaloud")
}

func runCLI(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) throws -> CLIResult {
    let process = Process()
    process.executableURL = mathaloudURL()
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let input = Pipe(), output = Pipe(), error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try launch(process)
    // Write and read concurrently so large outputs cannot dead-lock on full pipes.
    // A command that exits before reading all its input (a usage error) closes the pipe: the write
    // then fails with EPIPE, which must not kill the test process.
    ignoreSIGPIPE
    let writer = Thread {
        try? input.fileHandleForWriting.write(contentsOf: stdin)
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let errData = ErrorCollector(error.fileHandleForReading)
    let outData = output.fileHandleForReading.readToEndRetrying()
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData.wait(), as: UTF8.self))
}

final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readToEndRetrying()
            self.done.signal()
        }.start()
    }
    func wait() -> Data { done.wait(); return data }
}

/// Foundation's `Process` on Linux is not safe to launch from several threads at once (seen as a
/// crash in `strlen` while building the child's environment): every test launches through this lock.
let processLaunchLock = NSLock()

func launch(_ process: Process) throws {
    processLaunchLock.lock()
    defer { processLaunchLock.unlock() }
    try process.run()
}

/// Ignores SIGPIPE in the test process, once (evaluated on first use).
let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()
