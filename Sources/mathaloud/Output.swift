import Foundation
import MathAloud

/// Buffered writing to standard output and standard error.
struct Output {
    private var buffer: [UInt8] = []

    mutating func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ s: String) { write(s); write("\n") }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStream.output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func error(_ s: String) {
        StandardStream.error.write(s)
    }
}

/// Exit codes of `mathaloud` (documented in the README).
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// The input had errors (error diagnostics); output was still written where possible.
    case inputErrors = 1
    /// The command line was wrong.
    case usage = 2
    /// A file could not be read or written.
    case io = 3
    /// Speech rules or words could not be loaded (bad rule file, unknown locale or style).
    case rules = 4
    /// eSpeak-NG (its library data) or the requested voice is not available (`say`).
    case voice = 5
    /// A font, or the library an image format needs (cairo for PNG and PDF), could not be loaded (render).
    case font = 6
    /// The HTTP server could not start (libmicrohttpd missing, address in use) (serve).
    case server = 7
}


/// The files the document commands write (`convert`'s output and images, `audit`'s report): each
/// through ``OutputFile`` (a temporary file beside the target, renamed over it), and never at a
/// symbolic link: a link at the output's name, at an image's name or at a directory between the output
/// and its images is refused with nothing written (not followed, not replaced — the link may be the
/// author's, and its target some other document), as `audit --fix` refuses to rewrite a linked file.
enum DocumentOutput {
    /// Why `url` cannot be written: it is a symbolic link or a directory; nil when it can (it is a
    /// file, or absent). The error names it `shown` (the path as the user wrote it).
    static func problem(_ url: URL, shown: String? = nil) -> OutputFileError? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        let name = shown ?? url.path
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            return OutputFileError(path: name, operation: "write", reason: "it is a symbolic link (not written through or replaced)")
        case S_IFDIR:
            return OutputFileError(path: name, operation: "write", reason: "it is a directory (give a file name)")
        default:
            return nil
        }
    }

    /// Checks, then creates as needed, the directories from `base` (excluded) down to `url`'s directory:
    /// none may be a symbolic link or a file. Errors name them under `shownBase` (the base as the user
    /// wrote it; nil: absolute paths).
    static func prepareDirectories(of url: URL, under base: URL, shownBase: String? = nil) throws(OutputFileError) {
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
            case S_IFLNK:
                throw OutputFileError(path: shown, operation: "write into", reason: "it is a symbolic link (not written through)")
            default:
                throw OutputFileError(path: shown, operation: "create the directory", reason: "a file of that name exists")
            }
        }
    }

    /// Writes `data` to `url` (checked by ``problem(_:shown:)`` first).
    static func write(_ data: Data, to url: URL, shown: String? = nil) throws(OutputFileError) {
        if let problem = problem(url, shown: shown) { throw problem }
        do { try OutputFile.write(data, to: url) } catch {
            throw OutputFileError(path: shown ?? url.path, operation: error.operation, reason: error.reason)
        }
    }
}
