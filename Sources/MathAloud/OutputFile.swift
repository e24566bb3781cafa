import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written safely: bytes go to a new temporary file in the target's directory, created
/// exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`, so nothing that already exists there — a planted
/// symbolic link included — is opened or followed), and ``commit()`` renames it over the target in one
/// step. A reader sees the old file or the whole new one, never a part; a symbolic link at the target's
/// name is replaced, never written through; a failure leaves the target as it was and removes the
/// temporary file. Every file the CLI and the batches write (images, WAVs, manifests, `index.html`)
/// goes through this type.
///
/// Two policies for a symbolic link already at the target's name (``LinkPolicy``): the batches
/// (`render`, `say`, the voice batch) replace it; the document commands (`convert`'s output and images,
/// `audit`'s report, `audit --fix`) refuse it with ``OutputFileError/symbolicLink(_:)`` and write
/// nothing, checked when the file is started and again right before the rename, and
/// ``prepareDirectories(of:under:shownBase:)`` refuses a link at a folder between a base and the target.
/// A refused file replacing an existing one keeps that file's permissions and is flushed to disk first.
///
/// ```swift
/// try OutputFile.write(Data("hello\n".utf8), to: URL(fileURLWithPath: "out/hello.txt"))
/// var manifest = try OutputFile(url)      // or stream: append, then commit
/// try manifest.append(line)
/// try manifest.commit()
/// ```
///
/// Not `Sendable`: one writer owns a file until it commits or discards it.
public final class OutputFile {
    /// What a symbolic link at the target's name does to the write.
    public enum LinkPolicy: Sendable, Hashable {
        /// The link is replaced by the file (never written through): the batches' outputs.
        case replace
        /// The link is refused (``OutputFileError/symbolicLink(_:)``) and nothing is written: the document
        /// commands' outputs, where a link is the author's and replacing it would break their site.
        case refuse
    }

    /// The file that ``commit()`` replaces.
    public let url: URL
    /// The target's name in messages (the path as the user wrote it).
    public let shown: String
    /// What a symbolic link at the target's name does.
    public let links: LinkPolicy
    private let temporaryPath: String
    private var descriptor: Int32
    private var finished = false
    /// ``LinkPolicy/refuse``: whether a file was at the target when this one was started (one that
    /// disappears meanwhile is not silently written anew).
    private var targetExisted = false

    /// Writes `data` to `url` safely (a temporary file renamed over it).
    public static func write(_ data: Data, to url: URL, shown: String? = nil, links: LinkPolicy = .replace) throws(OutputFileError) {
        let file = try OutputFile(url, shown: shown, links: links)
        do throws(OutputFileError) {
            try file.append(data)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Writes `text` as UTF-8 to `url` safely.
    public static func write(_ text: String, to url: URL, shown: String? = nil, links: LinkPolicy = .replace) throws(OutputFileError) {
        try write(Data(text.utf8), to: url, shown: shown, links: links)
    }

    /// Starts a file that will replace `url`: creates its temporary file in the same directory. With
    /// `links: .refuse`, a symbolic link or a directory at `url` is refused first (``refusal(of:shown:)``).
    /// Errors name the file `shown` (default: its path).
    /// - Throws: ``OutputFileError`` when the directory does not exist or cannot be written.
    public init(_ url: URL, shown: String? = nil, links: LinkPolicy = .replace) throws(OutputFileError) {
        self.url = url
        self.shown = shown ?? url.path
        self.links = links
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        guard !name.isEmpty, name != ".", name != ".." else {
            throw OutputFileError(path: self.shown, operation: "create", reason: "not a file name")
        }
        if links == .refuse, let refusal = Self.refusal(of: url, shown: shown) { throw refusal }
        var existing = stat()
        let existed = links == .refuse && lstat(url.path, &existing) == 0
        var path = ""
        var fd: Int32 = -1
        // A random name; EEXIST (a name taken, or planted) just draws another.
        for _ in 0..<32 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            path = (directory.isEmpty ? "." : directory) + "/." + name.prefix(100) + "." + suffix + ".tmp"
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw OutputFileError(path: self.shown, operation: "create", errno: errno) }
        temporaryPath = path
        descriptor = fd
        targetExisted = existed
    }

    /// Why a document command must not write `url`: a symbolic link (dangling or not) or a directory at
    /// that name; nil when it may (a file, or nothing). The error names it `shown` (default: its path).
    public static func refusal(of url: URL, shown: String? = nil) -> OutputFileError? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        let name = shown ?? url.path
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .symbolicLink(name)
        case S_IFDIR: return OutputFileError(path: name, operation: "write", reason: "it is a directory (give a file name)")
        default: return nil
        }
    }

    /// Checks, then creates as needed, the directories from `base` (excluded) down to `url`'s directory,
    /// for a document command's output: none may be a symbolic link (``OutputFileError/symbolicLink(_:)``)
    /// or a file, and `url` must be under `base`. Errors name them under `shownBase` (the base as the
    /// user wrote it; nil: absolute paths).
    public static func prepareDirectories(of url: URL, under base: URL, shownBase: String? = nil) throws(OutputFileError) {
        let basePath = base.standardizedFileURL.path
        let directory = url.standardizedFileURL.deletingLastPathComponent().path
        guard directory == basePath || directory.hasPrefix(basePath.hasSuffix("/") ? basePath : basePath + "/") else {
            throw OutputFileError(path: url.path, operation: "write", reason: "it is outside the output's directory")
        }
        var path = basePath
        var shown = shownBase ?? basePath
        for component in directory.dropFirst(basePath.count).split(separator: "/") {
            path += (path.hasSuffix("/") ? "" : "/") + component
            shown = shown.isEmpty ? String(component) : shown + (shown.hasSuffix("/") ? "" : "/") + component
            var info = stat()
            if lstat(path, &info) != 0 {
                guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
                    throw OutputFileError(path: shown, operation: "create the directory", errno: errno)
                }
                guard lstat(path, &info) == 0 else { throw OutputFileError(path: shown, operation: "create the directory", errno: errno) }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK: throw .symbolicLink(shown)
            default: throw OutputFileError(path: shown, operation: "create the directory", reason: "a file of that name exists")
            }
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Appends bytes to the temporary file.
    public func append(_ data: Data) throws(OutputFileError) {
        precondition(!finished, "OutputFile used after commit or discard")
        let failure = data.withUnsafeBytes { Descriptor.writeAll(descriptor, $0) }
        if let failure { throw OutputFileError(path: shown, operation: "write", errno: failure) }
    }

    /// Appends text as UTF-8.
    public func append(_ text: String) throws(OutputFileError) { try append(Data(text.utf8)) }

    /// Closes the temporary file and renames it over the target (``LinkPolicy/replace``: replacing a
    /// file or a symbolic link of that name, never following it; ``LinkPolicy/refuse``: flushed to disk,
    /// given the permissions of the file it replaces, and refused when a link or a directory has
    /// appeared at the name since the file was started). On failure the temporary file is removed.
    public func commit() throws(OutputFileError) {
        precondition(!finished, "OutputFile committed twice")
        finished = true
        if links == .refuse {
            var existing = stat()
            if lstat(url.path, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG {
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
            }
            if fsync(descriptor) != 0 {
                let e = errno
                close(descriptor)
                descriptor = -1
                unlink(temporaryPath)
                throw OutputFileError(path: shown, operation: "write", errno: e)
            }
        }
        if close(descriptor) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw OutputFileError(path: shown, operation: "write", errno: e)
        }
        descriptor = -1
        // The target may have been replaced by a link meanwhile: checked again right before the rename.
        if links == .refuse, let refusal = Self.refusal(of: url, shown: shown) {
            unlink(temporaryPath)
            throw refusal
        }
        if links == .refuse, targetExisted, access(url.path, F_OK) != 0 {
            unlink(temporaryPath)
            throw OutputFileError(path: shown, operation: "write", reason: "it was removed while it was being written; it is not written anew")
        }
        if rename(temporaryPath, url.path) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw OutputFileError(path: shown, operation: "write", errno: e)
        }
    }

    /// Abandons the file: the temporary file is removed and the target is left as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        unlink(temporaryPath)
    }

    /// Creates a directory for output (and its parents) and returns an error with the reason when it
    /// cannot (`mkdir -p`; an existing directory, or a symbolic link to one, is fine).
    public static func createDirectory(_ url: URL) throws(OutputFileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OutputFileError(path: url.path, operation: "create the directory", reason: "a file of that name exists") }
            return
        }
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw OutputFileError(path: url.path, operation: "create the directory", reason: OutputFileError.reason(error))
        }
    }
}

/// Why a file could not be read or written: the path, what was tried, and the system's reason.
public struct OutputFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What was tried (`create`, `write`, `read`).
    public let operation: String
    /// Why it failed (`Permission denied`, `Is a directory`).
    public let reason: String
    /// Whether it failed because the input is over a size limit (rather than a system error).
    public let isLimit: Bool
    /// The catalog id of a refusal (`output.symbolic-link`); nil for a system error.
    public let id: DiagnosticID?

    /// An error with a reason.
    public init(path: String, operation: String, reason: String, isLimit: Bool = false, id: DiagnosticID? = nil) {
        self.path = path
        self.operation = operation
        self.reason = reason
        self.isLimit = isLimit
        self.id = id
    }

    /// The one refusal of a symbolic link where a document command writes (the output, an image, a
    /// report, a fixed file, or a folder between the output and its images): id `output.symbolic-link`,
    /// "cannot write site/images: it is a symbolic link (not written through or replaced)".
    public static func symbolicLink(_ path: String) -> OutputFileError {
        OutputFileError(path: path, operation: "write", reason: "it is a symbolic link (not written through or replaced)",
                        id: "output.symbolic-link")
    }

    /// An error from an `errno` value.
    public init(path: String, operation: String, errno code: Int32) {
        self.init(path: path, operation: operation, reason: String(cString: strerror(code)))
    }

    /// "cannot write out/x.svg: Permission denied".
    public var description: String { "cannot \(operation) \(path): \(reason)" }

    /// The most specific reason Foundation gives for a file error (its underlying POSIX error).
    public static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}

/// Reading input with a size bound and a reason when it fails.
public enum InputFile {
    /// Reads a whole file, at most `limit` bytes.
    /// - Throws: ``OutputFileError`` (operation `read`) naming the reason: missing, a directory, no
    ///   permission, or over the limit.
    public static func read(_ path: String, limit: Int = BatchLimits.defaultMaxInputBytes) throws(OutputFileError) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError(path: path, operation: "read", errno: errno) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            throw OutputFileError(path: path, operation: "read", errno: EISDIR)
        }
        return try readAll(fd, limit: limit, name: path)
    }

    /// Reads standard input to its end, at most `limit` bytes.
    public static func readStandardInput(limit: Int = BatchLimits.defaultMaxInputBytes) throws(OutputFileError) -> Data {
        try readAll(0, limit: limit, name: "standard input")
    }

    /// Reads an open handle (the pipe of a child process) to its end, retrying interrupted reads, where
    /// `FileHandle.readDataToEndOfFile()` stops the process on EINTR.
    public static func readToEnd(_ handle: FileHandle, limit: Int = .max) throws(OutputFileError) -> Data {
        try readAll(handle.fileDescriptor, limit: limit, name: "descriptor \(handle.fileDescriptor)")
    }

    /// Reads a descriptor to its end; more than `limit` bytes is an error (reading stops there, so
    /// memory stays bounded whatever the input is).
    static func readAll(_ fd: Int32, limit: Int, name: String) throws(OutputFileError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if n < 0 { throw OutputFileError(path: name, operation: "read", errno: errno) }
            if n == 0 { return data }
            if data.count + n > limit {
                throw OutputFileError(path: name, operation: "read",
                                      reason: "the input is over the limit of \(limit) bytes (--max-input-bytes)", isLimit: true)
            }
            data.append(contentsOf: buffer[0..<n])
        }
    }
}

/// read(2) and write(2) with interrupted calls retried, for every descriptor the package reads or
/// writes itself: Foundation's `FileHandle` reads and writes stop the process on EINTR (a child's
/// SIGCHLD during a test run did) and on EPIPE.
package enum Descriptor {
    /// Writes all of `bytes` to `fd`: nil, or the errno of the write that failed.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// One read of at most `buffer.count` bytes: their count, 0 at the end, or -1 with `errno` set.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = Foundation.read(fd, buffer.baseAddress!, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// What one read returns, at most `capacity` bytes: what has arrived on a pipe, empty at the end
    /// (or on an error). FileHandle's `availableData` stops the process on an interrupted read.
    package static func available(_ fd: Int32, capacity: Int = 1 << 16) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: capacity)
        let n = bytes.withUnsafeMutableBytes { read(fd, into: $0) }
        bytes.removeSubrange(max(n, 0)...)
        return bytes
    }
}

/// Standard output or standard error, written without Foundation's `FileHandle.write(_:)`, which stops
/// the process when a write is interrupted by a signal (EINTR) or the reader has gone (EPIPE). Every
/// write of the command-line tool and the service to these streams goes through here.
public enum StandardStream: Sendable {
    /// Standard output (descriptor 1).
    case output
    /// Standard error (descriptor 2).
    case error

    /// Writes all of `bytes`, retrying an interrupted write. Returns false when the stream is closed
    /// or a write fails (the rest is dropped: there is nowhere left to report it).
    @discardableResult
    public func write(_ bytes: some ContiguousBytes) -> Bool {
        bytes.withUnsafeBytes { Descriptor.writeAll(self == .output ? 1 : 2, $0) == nil }
    }

    /// Writes text as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { Descriptor.writeAll(self == .output ? 1 : 2, UnsafeRawBufferPointer($0)) == nil }
    }
}

/// Lines of a stream with a bound on each: a line longer than the bound is reported by its length and
/// skipped without being kept in memory, so one huge line (or `/dev/zero`) cannot exhaust memory and
/// the lines after it are still read. `\n` ends a line; a `\r` before it is dropped; the last line
/// needs no `\n`; a stream ending in `\n` has no empty last line. A line still without an end after
/// `maxSkipBytes` is `.endless` and ends the stream: such input (`/dev/zero`, a binary file) is not
/// lines, and reading it to its end would never finish.
public struct BoundedLineReader {
    /// One line.
    public enum Line: Sendable, Equatable {
        /// The line's bytes (without its end).
        case text([UInt8])
        /// A line over the limit: how many bytes it had.
        case tooLong(bytes: Int)
        /// A line with no end after this many bytes: the reader stops there (`next()` then returns nil).
        case endless(bytes: Int)
    }

    /// The default bound on the bytes skipped for one over-long line, 64 MiB: far over any line
    /// limit, small enough to be read in a fraction of a second.
    public static let defaultMaxSkipBytes = 64 << 20

    private let fd: Int32
    private let limit: Int
    private let maxSkip: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false

    /// Reads from a file descriptor (0: standard input); lines longer than `limit` bytes are `.tooLong`,
    /// and a line with no end after `maxSkipBytes` (at least `limit`) is `.endless` and the last.
    public init(fileDescriptor: Int32 = 0, limit: Int = BatchLimits.defaultMaxLineBytes,
                maxSkipBytes: Int = BoundedLineReader.defaultMaxSkipBytes) {
        self.fd = fileDescriptor
        self.limit = max(1, limit)
        self.maxSkip = max(self.limit, maxSkipBytes)
        self.buffer = [UInt8](repeating: 0, count: max(1 << 16, min(limit + 1, 1 << 20)))
    }

    /// The next line, or nil at the end of the stream (or on a read error).
    public mutating func next() -> Line? {
        var overflow = 0           // bytes of a too-long line already dropped
        var scanned = start        // bytes before this hold no line end
        while true {
            // A line end in the buffered bytes?
            if let newline = buffer[scanned..<end].firstIndex(of: 0x0A) {
                let lineEnd = newline
                defer { start = newline + 1 }
                if overflow > 0 || lineEnd - start > limit { return .tooLong(bytes: overflow + lineEnd - start) }
                var e = lineEnd
                if e > start, buffer[e - 1] == 0x0D { e -= 1 }
                return .text(Array(buffer[start..<e]))
            }
            if atEOF {
                guard end > start || overflow > 0 else { return nil }
                defer { start = end }
                if overflow > 0 || end - start > limit { return .tooLong(bytes: overflow + end - start) }
                var e = end
                if e > start, buffer[e - 1] == 0x0D { e -= 1 }
                return .text(Array(buffer[start..<e]))
            }
            scanned = end
            // Over the limit with no end in sight: drop what is buffered, keep counting.
            if end - start > limit {
                overflow += end - start
                start = 0
                end = 0
                scanned = 0
                if overflow > maxSkip {
                    atEOF = true
                    return .endless(bytes: overflow)
                }
            }
            // Make room, then read more.
            if start > 0 {
                buffer.withUnsafeMutableBufferPointer { b in
                    _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start)
                }
                end -= start
                scanned -= start
                start = 0
            }
            if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
            let n = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[end...])) }
            if n <= 0 { atEOF = true } else { end += n }
        }
    }
}

/// The requests of a JSON Lines stream, one per line, as every batch reads them: each line gives a
/// ``FormulaRequest`` or the ``BatchError`` to write in its place, so the output has exactly one line
/// per input line. An empty line, a line that is not a JSON object and a line over the length limit
/// (reported by its length, not kept in memory) are error lines; the stream goes on after them.
public struct BatchRequestReader {
    private var lines: BoundedLineReader
    private let limit: Int
    /// The number of the last line read (from 1).
    public private(set) var lineNumber = 0

    /// Reads from a file descriptor (0: standard input) with lines of at most `maxLineBytes`.
    public init(fileDescriptor: Int32 = 0, maxLineBytes: Int = BatchLimits.defaultMaxLineBytes) {
        lines = BoundedLineReader(fileDescriptor: fileDescriptor, limit: maxLineBytes)
        limit = maxLineBytes
    }

    /// The next line's request or error; nil at the end of the stream.
    public mutating func next() -> Result<FormulaRequest, BatchError>? {
        guard let line = lines.next() else { return nil }
        lineNumber += 1
        switch line {
        case .tooLong(let bytes):
            return .failure(BatchError(id: .null, message: "line \(lineNumber) is \(bytes) bytes, over the limit of \(limit) (--max-line-bytes); skipped"))
        case .endless(let bytes):
            return .failure(BatchError(id: .null, message: "line \(lineNumber) has no end after \(bytes) bytes: the input is not JSON Lines; the rest of it was not read"))
        case .text(let bytes):
            return bytes.withUnsafeBufferPointer { FormulaRequest.read(line: $0) }
        }
    }

    /// Up to `maxLines` lines, stopping early once their text passes `maxBytes` (so a chunk of long
    /// lines stays small); nil at the end of the stream.
    public mutating func nextChunk(maxLines: Int, maxBytes: Int = 16 << 20) -> [Result<FormulaRequest, BatchError>]? {
        var chunk: [Result<FormulaRequest, BatchError>] = []
        var bytes = 0
        while chunk.count < maxLines, bytes < maxBytes, let next = next() {
            if case .success(let r) = next { bytes += r.input.source.utf8.count }
            chunk.append(next)
        }
        return chunk.isEmpty ? nil : chunk
    }
}
