import Foundation

/// The files of a document set: the directories and files given, walked in a fixed order (byte order of
/// the relative paths), filtered by format and by the configuration's globs, and optionally cut into a
/// deterministic shard.
public struct AuditFileSet: Sendable {
    /// One file to audit.
    public struct Item: Sendable, Hashable {
        /// Where it is.
        public let url: URL
        /// How it is reported: as given on the command line (a file), or the directory as given and the
        /// path under it (`docs/notes.md` for `audit docs`; `notes.md` for `audit .`), so that a location
        /// opens from the current directory and a `--dry-run` diff applies there with `patch -p1`.
        public let path: String
        /// Its format.
        public let format: FileFormat
        /// The folder the configuration's globs are matched from for this file and the LaTeX files it
        /// includes: the directory given that it was found in, else the current directory (a file or
        /// a glob given).
        public let root: URL
    }

    /// The files, sorted by path.
    public private(set) var items: [Item]
    /// Inputs that do not exist (reported by the caller).
    public private(set) var missing: [String]
    /// Globs that matched no file (reported by the caller: a CI job must not pass on an empty set).
    public private(set) var unmatchedGlobs: [String] = []

    /// Lists the files under `inputs` (directories are walked; symbolic links to directories are not
    /// followed, so a cycle cannot loop). A file named on the command line is audited whatever its
    /// extension when its content says its format; files found in a directory need a known extension.
    public init(inputs: [String], configuration: AuditConfiguration, directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        var items: [Item] = []
        var missing: [String] = []
        var unmatched: [String] = []
        let fm = FileManager.default
        for input in inputs {
            let url = URL(fileURLWithPath: input, relativeTo: directory).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                if input.contains("*") || input.contains("?") || input.contains("[") {
                    // A glob the shell did not expand: matched against the files under the current directory.
                    let glob = Glob(input.hasPrefix("/") ? input : "/" + input)
                    let before = items.count
                    for item in AuditFileSet.walk(directory, prefix: "", configuration: AuditConfiguration()) where glob.matches(item.path) {
                        if configuration.selects(item.path) { items.append(item) }
                    }
                    if items.count == before { unmatched.append(input) }
                } else {
                    missing.append(input)
                }
                continue
            }
            if isDirectory.boolValue {
                var given = input
                while given.count > 1, given.hasSuffix("/") { given.removeLast() }
                while given.hasPrefix("./") { given.removeFirst(2) }
                let prefix = given == "." || given.isEmpty ? "" : given + "/"
                items.append(contentsOf: AuditFileSet.walk(url, prefix: prefix, configuration: configuration))
            } else {
                let format = FileFormat.forExtension(url.pathExtension) ?? AuditFileSet.sniff(url)
                // A file given by name is audited even when it cannot be read: that is a finding.
                items.append(Item(url: url, path: input, format: format ?? .text, root: directory.standardizedFileURL))
            }
        }
        var seen = Set<String>()
        let sorted = items.filter { seen.insert($0.path).inserted }.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        self.items = AuditFileSet.withoutIncludedFiles(sorted, configuration: configuration)
        self.missing = missing
        self.unmatchedGlobs = unmatched
    }

    /// The items without the LaTeX files another LaTeX file of the set includes: those are audited
    /// through the file that includes them (with its definitions, located in their own lines), once,
    /// in the same shard. A set whose files only include each other (a cycle) keeps its first file. A
    /// file whose inclusion the `exclude` globs leave out is not audited through the file that includes
    /// it, so it stays (given by name, it is audited).
    static func withoutIncludedFiles(_ items: [Item], configuration: AuditConfiguration) -> [Item] {
        let latex = items.filter { $0.format == .latex }
        guard latex.count > 1 else { return items }
        func key(_ item: Item) -> String { item.url.standardizedFileURL.path }
        var includes: [String: Set<String>] = [:]
        for item in latex {
            includes[key(item)] = Segmenters.includedFiles(of: item.url).subtracting([key(item)]).filter {
                !configuration.excludes(included: URL(fileURLWithPath: $0), from: item.root)
            }
        }
        let included = includes.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        var covered = Set<String>()
        var kept = Set<String>()
        for pass in 0..<2 {
            for item in latex where pass == 0 ? !included.contains(key(item)) : !covered.contains(key(item)) {
                kept.insert(key(item))
                covered.insert(key(item))
                covered.formUnion(includes[key(item)] ?? [])
            }
        }
        return items.filter { $0.format != .latex || kept.contains(key($0)) }
    }

    static func sniff(_ url: URL) -> FileFormat? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? nil
        return head.flatMap { FileFormat.sniff([UInt8]($0)) }
    }

    /// The supported files under `root`, relative paths with `prefix`.
    static func walk(_ root: URL, prefix: String, configuration: AuditConfiguration) -> [Item] {
        var items: [Item] = []
        let fm = FileManager.default
        var stack: [(URL, String)] = [(root, "")]
        while let (directory, relative) = stack.popLast() {
            guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names {
                if name == ".git" || name == ".hg" || name == ".svn" { continue }
                let url = directory.appendingPathComponent(name)
                let path = relative.isEmpty ? name : relative + "/" + name
                guard let attributes = try? fm.attributesOfItem(atPath: url.path) else {
                    // Unreadable entries are still listed when they look like documents: that is a finding.
                    if let format = FileFormat.forExtension(url.pathExtension), configuration.selects(path) {
                        items.append(Item(url: url, path: prefix + path, format: format, root: root))
                    }
                    continue
                }
                let type = attributes[.type] as? FileAttributeType
                if type == .typeDirectory {
                    stack.append((url, path))
                } else if type == .typeRegular || type == .typeSymbolicLink {
                    if type == .typeSymbolicLink {
                        var isDirectory: ObjCBool = false
                        if fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { continue }
                    }
                    guard let format = FileFormat.forExtension(url.pathExtension), configuration.selects(path) else { continue }
                    items.append(Item(url: url, path: prefix + path, format: format, root: root))
                }
            }
        }
        return items
    }

    /// Keeps the files of shard `index` (1-based) of `count`: a file belongs to the shard its path's
    /// FNV-1a hash selects, so shards are the same on every machine and a new file moves no other.
    public mutating func restrict(toShard index: Int, of count: Int) {
        items = items.filter { AuditFileSet.shard(of: $0.path, count: count) == index }
    }

    /// The 1-based shard of a path.
    public static func shard(of path: String, count: Int) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(hash % UInt64(max(1, count))) + 1
    }
}
