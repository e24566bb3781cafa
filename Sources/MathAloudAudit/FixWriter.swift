import Foundation
import MathAloud
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files the audit fixes, through ``OutputFile`` with the document commands' policy
/// (``OutputFile/LinkPolicy/refuse``): atomically (a temporary file in the same directory, flushed, then
/// renamed over the original), never through or over a symbolic link (checked before and right before
/// the rename: ``OutputFileError/symbolicLink(_:)``), keeping the file's permissions. The one place
/// `--fix` touches the file system.
public enum SafeFileWriter {
    /// Replaces the regular file at `url` with `bytes`; errors name it `shown` (default: its path).
    public static func replace(_ url: URL, with bytes: [UInt8], shown: String? = nil) throws(OutputFileError) {
        let name = shown ?? url.path
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw OutputFileError(path: name, operation: "write", errno: errno) }
        if let refusal = OutputFile.refusal(of: url, shown: name) { throw refusal }
        guard info.st_mode & S_IFMT == S_IFREG else { throw OutputFileError(path: name, operation: "write", reason: "it is not a regular file") }
        try OutputFile.write(Data(bytes), to: url, shown: name, links: .refuse)
    }
}

/// Applies fix plans: checks each file is unchanged since it was audited, applies the edits (only
/// the bytes of the attributes change), writes atomically; or, for `--dry-run`, prints a unified diff.
public struct FixApplier {
    /// Files written (or that would be).
    public private(set) var filesChanged = 0
    /// Labels written.
    public private(set) var edits = 0
    /// Problems (files not written and why).
    public private(set) var problems: [String] = []

    /// Creates an applier.
    public init() {}

    /// Applies one plan; with `dryRun`, appends a unified diff to `diff` instead of writing.
    public mutating func apply(_ plan: FixPlan, dryRun: Bool, diff: (String) -> Void) {
        guard !plan.isEmpty else { return }
        if let blocked = plan.blocked { problems.append("\(plan.file): \(blocked)"); return }
        if plan.edits.keys.contains(where: { $0 != nil }) { applyEPUB(plan, dryRun: dryRun, diff: diff); return }
        let edits = plan.edits[nil] ?? []
        guard case .success(let bytes) = AuditEngine.read(plan.url, limit: Int.max) else {
            problems.append("\(plan.file): cannot be read again"); return
        }
        guard bytes.count == plan.size, Deflate.crc32(bytes) == plan.checksum else {
            problems.append("\(plan.file): changed since it was audited; not written"); return
        }
        let (changed, applied) = TextEdit.apply(edits, to: bytes)
        guard !applied.isEmpty, changed != bytes else { return }
        if dryRun {
            diff(UnifiedDiff.diff(old: bytes, edits: applied, name: plan.file))
        } else {
            do { try SafeFileWriter.replace(plan.url, with: changed, shown: plan.file) } catch {
                problems.append(error.description); return
            }
        }
        filesChanged += 1
        self.edits += applied.count
    }

    private mutating func applyEPUB(_ plan: FixPlan, dryRun: Bool, diff: (String) -> Void) {
        let container: EPUBContainer
        do { container = try EPUBContainer(url: plan.url) } catch { problems.append("\(plan.file): \(error)"); return }
        var replacements: [String: [UInt8]] = [:]
        var count = 0
        for (entryName, edits) in plan.edits.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
            guard let name = entryName, !edits.isEmpty, let entry = container.archive.entry(named: name),
                  let bytes = try? container.archive.contents(of: entry) else { continue }
            let (changed, applied) = TextEdit.apply(edits, to: bytes)
            guard !applied.isEmpty, changed != bytes else { continue }
            if dryRun { diff(UnifiedDiff.diff(old: bytes, edits: applied, name: "\(plan.file)!/\(name)")) }
            replacements[name] = changed
            count += applied.count
        }
        guard !replacements.isEmpty else { return }
        if !dryRun {
            do {
                let archive = try container.rewritten(replacing: replacements)
                try SafeFileWriter.replace(plan.url, with: archive, shown: plan.file)
            } catch let error as OutputFileError { problems.append(error.description); return } catch {
                problems.append("\(plan.file): \(error)"); return
            }
        }
        filesChanged += 1
        edits += count
    }
}

/// Unified diffs (POSIX `diff -u` format) of a text and the same text with edits applied, made from
/// the edits directly: each hunk is the lines an edit touches with three lines of context.
public enum UnifiedDiff {
    /// The diff of `old` and `old` with `edits` (sorted, non-overlapping) applied.
    public static func diff(old: [UInt8], edits: [TextEdit], name: String, context: Int = 3) -> String {
        // Line starts of the old text.
        var starts = [0]
        for (i, b) in old.enumerated() where b == 0x0A && i + 1 < old.count { starts.append(i + 1) }
        func line(of offset: Int) -> Int {
            var lo = 0, hi = starts.count - 1
            while lo < hi { let mid = (lo + hi + 1) / 2; if starts[mid] <= offset { lo = mid } else { hi = mid - 1 } }
            return lo
        }
        func end(ofLine l: Int) -> Int { l + 1 < starts.count ? starts[l + 1] : old.count }
        // Group edits whose line spans (with context) touch.
        var groups: [(first: Int, last: Int, edits: [TextEdit])] = []
        for edit in edits.sorted() {
            let first = line(of: edit.range.lowerBound), last = line(of: max(edit.range.lowerBound, edit.range.upperBound - 1))
            if var g = groups.last, first - context <= g.last + context + 1 {
                g.last = max(g.last, last); g.edits.append(edit); groups[groups.count - 1] = g
            } else {
                groups.append((first, last, [edit]))
            }
        }
        var out = "--- a/\(name)\n+++ b/\(name)\n"
        var shift = 0   // new line number minus old line number before the hunk
        for group in groups {
            let from = max(0, group.first - context), to = min(starts.count - 1, group.last + context)
            let changedFrom = starts[group.first], changedTo = end(ofLine: group.last)
            let oldChanged = Array(old[changedFrom..<changedTo])
            let localEdits = group.edits.map { TextEdit(range: SourceRange($0.range.lowerBound - changedFrom, $0.range.upperBound - changedFrom), replacement: $0.replacement) }
            let newChanged = TextEdit.apply(localEdits, to: oldChanged).bytes
            func lines(_ bytes: [UInt8]) -> [String] {
                var parts = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                if parts.last == "" { parts.removeLast() }
                return parts
            }
            let before = (from..<group.first).map { String(decoding: old[starts[$0]..<end(ofLine: $0)], as: UTF8.self) }
            let after = (group.last + 1 < to + 1 ? Array((group.last + 1)...to) : []).map { String(decoding: old[starts[$0]..<end(ofLine: $0)], as: UTF8.self) }
            let removed = lines(oldChanged), added = lines(newChanged)
            let oldCount = before.count + removed.count + after.count, newCount = before.count + added.count + after.count
            out += "@@ -\(from + 1),\(oldCount) +\(from + 1 + shift),\(newCount) @@\n"
            func strip(_ s: String) -> String { s.hasSuffix("\n") ? String(s.dropLast()) : s }
            for l in before { out += " " + strip(l) + "\n" }
            for l in removed { out += "-" + l + "\n" }
            for l in added { out += "+" + l + "\n" }
            for l in after { out += " " + strip(l) + "\n" }
            shift += added.count - removed.count
        }
        return out
    }
}
