import Foundation

/// The rule and word files speech is made from: built-in files (embedded in the binary at build
/// time) overlaid by an optional override directory, so a locale author can change a word or a rule
/// without rebuilding (`--rules-dir DIR` or `MATHALOUD_RULES`). Paths are relative to the package
/// root: `Rules/en/clearspeak.rules`, `Locales/en/symbols.txt`.
public struct SpeechResources: Sendable {
    /// Relative path → file text (built-in files with rule files replaced by the override directory's).
    public let files: [String: String]
    /// Word files (`.txt`, `.words`) from the override directory: their entries are merged over the
    /// built-in file of the same path, so an author can change one word without copying the file.
    public let wordOverrides: [String: String]
    /// Where the files from the override directory are on disk (relative path → file path), for
    /// messages that name the file an author edits.
    public let origins: [String: String]
    /// The locales and styles the paths of ``files`` name, found in one pass when the resources are
    /// made: every speaker asks for them several times while it loads (cold start, `BENCHMARKS.md`).
    private let index: PathIndex
    /// What has been loaded from ``files``, shared by every copy of these resources (their files never
    /// change): a process that speaks two locales, or one locale with two sets of preferences, parses
    /// and compiles each file once (``LoadedFiles``).
    private var loaded = LoadedFiles()

    /// Built-in files overlaid by `overrideDirectory` (which may hold `Rules/` and `Locales/`
    /// sub-folders, or be a `Rules`-like folder holding `<locale>/…` directly).
    public init(builtIn: [String: String], overrideDirectory: URL? = nil) throws(SpeechLoadError) {
        var files = builtIn
        var wordOverrides: [String: String] = [:]
        var origins: [String: String] = [:]
        if let dir = overrideDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw SpeechLoadError.missingOverrideDirectory(dir.path)
            }
            let base = dir.standardizedFileURL.path
            let hasTopFolders = FileManager.default.fileExists(atPath: base + "/Rules") || FileManager.default.fileExists(atPath: base + "/Locales")
            // Rule and word files are `<locale>/<file>` in `Rules/` and `Locales/` (or in the folder itself):
            // only those two levels are read, and no hidden file or folder. A package checkout given as the
            // folder (`--rules-dir .`) holds `.build/` with tens of thousands of files, some of them text
            // dumps of a hundred megabytes: walked whole, one `speak` took minutes and gigabytes.
            let roots = hasTopFolders ? ["Rules", "Locales"].filter { FileManager.default.fileExists(atPath: base + "/" + $0) } : [""]
            for root in roots {
                guard let enumerator = FileManager.default.enumerator(atPath: root.isEmpty ? base : base + "/" + root) else {
                    throw SpeechLoadError.missingOverrideDirectory(dir.path)
                }
                while let inRoot = enumerator.nextObject() as? String {
                    if enumerator.level >= 2 { enumerator.skipDescendants() }
                    if inRoot.split(separator: "/").last?.hasPrefix(".") == true {
                        enumerator.skipDescendants()
                        continue
                    }
                    let relative = root.isEmpty ? inRoot : root + "/" + inRoot
                    guard relative.hasSuffix(".rules") || relative.hasSuffix(".words") || relative.hasSuffix(".txt")
                            || relative.hasSuffix(".phrases") else { continue }
                    // A file that cannot be read, or is not UTF-8, is an error: silently using the built-in
                    // file instead would hide the author's change.
                    let path = base + "/" + relative
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { continue }
                    // A word or rule file is kilobytes (the largest shipped, under a megabyte): a bigger file
                    // is not one, and reading it whole would cost its size in memory.
                    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > SpeechResources.maximumFileSize {
                        throw SpeechLoadError.unreadableFile(path, reason: "it is \(size) bytes; a rule or word file is at most \(SpeechResources.maximumFileSize)")
                    }
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw SpeechLoadError.unreadableFile(path, reason: "it cannot be read (permissions?)")
                    }
                    let valid = SpeechResources.firstInvalidUTF8(in: data)
                    guard valid == data.count else {
                        let line = data.prefix(valid).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
                        throw SpeechLoadError.unreadableFile(path, reason: "it is not UTF-8 (line \(line), byte \(valid + 1))")
                    }
                    let text = String(decoding: data, as: UTF8.self)
                    var key = relative
                    if !hasTopFolders {
                        // A bare folder: `.rules`/`.words`/`.phrases` files are rules, `.txt` files are locale words.
                        key = (relative.hasSuffix(".txt") ? "Locales/" : "Rules/") + relative
                    }
                    if key.hasSuffix(".rules") || key.hasSuffix(".phrases") || files[key] == nil {
                        files[key] = text
                    } else {
                        wordOverrides[key] = text
                    }
                    origins[key] = (dir.path.hasSuffix("/") ? dir.path : dir.path + "/") + relative
                }
            }
        }
        self.files = files
        self.wordOverrides = wordOverrides
        self.origins = origins
        index = PathIndex(files.keys)
    }

    /// These resources without what has been loaded from them: what is loaded next is kept apart from
    /// what was loaded before, and dropped with the copy (the service checks every locale and style
    /// when it starts, each on such a copy).
    package func forgettingLoaded() -> SpeechResources {
        var copy = self
        copy.loaded = LoadedFiles()
        return copy
    }

    /// The largest rule or word file an override directory may hold (bytes).
    public static let maximumFileSize = 8 << 20

    /// The offset of the first byte that does not belong to valid UTF-8.
    static func firstInvalidUTF8(in data: Data) -> Int {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: return offset
            case .error: return offset
            }
        }
    }

    /// Files given directly (for tests).
    public init(files: [String: String], wordOverrides: [String: String] = [:]) {
        self.files = files
        self.wordOverrides = wordOverrides
        origins = [:]
        index = PathIndex(files.keys)
    }

    /// The path to show for a file: where it is on disk when it comes from the override directory
    /// (a word file merged over a built-in one shows the override), else its relative path.
    public func displayPath(_ relative: String) -> String { origins[relative] ?? relative }

    /// A word table: the file's entries with the override's merged over them.
    public func wordTable(_ path: String) throws(SpeechLoadError) -> WordTable? {
        guard let text = files[path] else { return nil }
        var table: WordTable
        do { table = try WordTable(parsing: text, file: String(path.drop { $0 != "/" }.dropFirst())) } catch {
            throw .invalidFiles(error.errors)
        }
        if let override = wordOverrides[path] {
            do { table.merge(try WordTable(parsing: override, file: "override:" + path)) } catch { throw .invalidFiles(error.errors) }
        }
        return table
    }

    /// The locales that have a `locale.txt`.
    public var locales: [String] { index.locales }

    /// The styles that have rules for a locale (`clearspeak`, `mathspeak`, `simplespeak`).
    public func styles(for locale: String) -> [String] { index.styles[locale] ?? [] }

    // MARK: Loading

    /// The locale whose words speak `tag`: the first tag of its fallback chain (`en-GB` → `en`) that has
    /// a `Locales/<tag>/locale.txt`, spelled as its folder is; nil when none has.
    public func wordsLocale(for tag: LocaleTag) -> String? {
        let available = locales
        for candidate in tag.fallbackChain {
            if let match = available.first(where: { LocaleTag($0) == candidate }) { return match }
        }
        return nil
    }

    /// The locale whose rules give `style` for `tag`: the first tag of its fallback chain that has
    /// `Rules/<tag>/<style>.rules`, else the first of the words locale's parents (`parent` in
    /// `locale.txt`, so `nn` may speak with `nb`'s rules) that has; nil when none has.
    public func rulesLocale(for tag: LocaleTag, style: SpeechStyleName) -> String? {
        let folders = index.ruleFolders.filter { index.styles[$0]?.contains(style.rawValue) == true }
        var candidates = tag.fallbackChain
        if let words = wordsLocale(for: tag) { candidates += parentChain(of: words).dropFirst().map { LocaleTag($0) } }
        for candidate in candidates {
            if let match = folders.first(where: { LocaleTag($0) == candidate }) { return match }
        }
        return nil
    }

    /// The eSpeak-NG voices the locale of `tag` names (`espeak-voice`, of the first locale of its parent
    /// chain that sets one), best first; empty when no locale data speaks `tag`.
    public func espeakVoices(for tag: LocaleTag) -> [String] {
        guard let locale = wordsLocale(for: tag) else { return [] }
        for t in parentChain(of: locale) {
            guard let text = files["Locales/\(t)/locale.txt"], let value = LocaleSettings.value("espeak-voice", in: text) else { continue }
            return value.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        }
        return []
    }

    /// A locale and its parents by their `parent` settings, most specific first (a cycle or a missing
    /// parent ends the list; loading the words reports them).
    public func parentChain(of locale: String) -> [String] {
        var chain: [String] = []
        var next: String? = locale
        while let t = next, !chain.contains(t), let text = files["Locales/\(t)/locale.txt"] {
            chain.append(t)
            next = LocaleSettings.parent(in: text)
        }
        return chain
    }

    /// Loads a locale and its parents' words; the locale is found by fallback (``wordsLocale(for:)``).
    public func lexiconChain(for locale: String) throws(SpeechLoadError) -> [LocaleWords] {
        guard let resolved = wordsLocale(for: LocaleTag(locale)) else { throw .unknownLocale(locale, available: locales) }
        var chain: [LocaleWords] = []
        var tag: String? = resolved
        var visited: Set<String> = []
        while let t = tag {
            guard !visited.contains(t) else { throw .inheritanceCycle(t) }
            visited.insert(t)
            guard files["Locales/\(t)/locale.txt"] != nil else {
                throw .missingFile("Locales/\(t)/locale.txt (the parent of locale '\(chain.last?.tag ?? resolved)')")
            }
            let words: LocaleWords
            if let known = loaded.localeWords(t) {
                words = known
            } else {
                words = try loadLocale(t)
                loaded.keep(words, for: t)
            }
            chain.append(words)
            tag = words.parent
        }
        return chain
    }

    private func loadLocale(_ tag: String) throws(SpeechLoadError) -> LocaleWords {
        func table(_ name: String) throws(SpeechLoadError) -> WordTable {
            try wordTable("Locales/\(tag)/\(name)") ?? WordTable()
        }
        let settings = try table("locale.txt"), symbols = try table("symbols.txt"), functions = try table("functions.txt")
        let units = try table("units.txt"), numbers = try table("numbers.txt"), fonts = try table("fonts.txt"), contractions = try table("contractions.txt")
        let forms = try table("forms.txt")
        do throws(RuleFileErrors) {
            return try LocaleWords(tag: tag, settings: settings, symbols: symbols, functions: functions, units: units,
                                   numbers: numbers, fonts: fonts, contractions: contractions, forms: forms)
        } catch {
            throw .invalidFiles(error.errors)
        }
    }

    /// Loads a style's rule file and what it inherits, and its word files; the locale is found by
    /// fallback (``rulesLocale(for:style:)``: `en-GB` uses `Rules/en/` until `Rules/en-GB/` exists). `examples` keeps the rules'
    /// inline examples (for tests); a speaker does not need them.
    public func style(_ style: String, locale: String, examples: Bool = false) throws(SpeechLoadError) -> SpeechStyle {
        let key = "\(style)\u{1F}\(locale)\u{1F}\(examples)"
        if let known = loaded.style(key) { return known }
        let compiled = try compileStyle(style, locale: locale, examples: examples)
        loaded.keep(compiled, for: key)
        return compiled
    }

    private func compileStyle(_ style: String, locale: String, examples: Bool) throws(SpeechLoadError) -> SpeechStyle {
        let name = SpeechStyleName(style)
        guard let rulesLocale = rulesLocale(for: LocaleTag(locale), style: name) else {
            let available = LocaleTag(locale).fallbackChain.lazy.compactMap { tag in
                self.locales.first { LocaleTag($0) == tag }.map { self.styles(for: $0) }
            }.first ?? []
            throw .unknownStyle(style, locale: locale, available: available)
        }
        let path = "Rules/\(rulesLocale)/\(name.rawValue).rules"
        var ruleFiles: [RuleFile] = []
        // Each file to load, with where it was named (`file:line` of its `inherit`; nil for the style's
        // own) and whether its preferences are offered: not when it is reached through an
        // `inherit … without preferences` line (nor anything it inherits in turn).
        var queue: [(path: String, from: String?, offersPreferences: Bool)] = [(path, nil, true)]
        var visited: Set<String> = []
        var fixed: Set<String> = []
        var words = WordTable()
        while !queue.isEmpty {
            let (next, from, offersPreferences) = queue.removeFirst()
            guard !visited.contains(next) else { continue }
            visited.insert(next)
            guard let text = files[next] else {
                if let from { throw .missingInheritedFile(next, inheritedAt: from) }
                throw .missingFile(next)
            }
            let file: RuleFile
            if let known = loaded.ruleFile(next, examples: examples) {
                file = known
            } else {
                do { file = try RuleFile(parsing: text, file: String(next.dropFirst(6)), examples: examples) } catch { throw .invalidFiles(error.errors) }
                loaded.keep(file, for: next, examples: examples)
            }
            ruleFiles.append(file)
            if !offersPreferences { fixed.insert(file.file) }
            for name in file.wordFiles {
                // A shared file (`locale common`, or none) names the speaking locale's word files.
                let shared = file.locale.isEmpty || file.locale == "common"
                let wordPath = "Rules/\(shared ? rulesLocale : file.locale)/\(name).words"
                guard let table = try wordTable(wordPath) else { throw .missingFile(wordPath) }
                // Earlier (more specific) files win.
                var merged = table
                merged.merge(words)
                words = merged
            }
            for (k, parent) in file.inherits.enumerated() {
                let line = k < file.inheritLines.count ? file.inheritLines[k] : 0
                queue.append(("Rules/\(parent.path).rules", "\(file.file):\(line)", offersPreferences && parent.offersPreferences))
            }
        }
        // Rules inherited from another language speak this locale's phrases (PhraseTable).
        let ownLocale = ruleFiles.first?.locale ?? rulesLocale
        var phrases = PhraseTable()
        var translatesSomething = false
        for file in ruleFiles where file.locale == ownLocale {
            for name in file.phraseFiles {
                let phrasePath = "Rules/\(file.locale)/\(name).phrases"
                guard let text = files[phrasePath] else { throw .missingFile(phrasePath) }
                do { phrases.merge(try PhraseTable(parsing: text, file: String(phrasePath.dropFirst(6)))) } catch {
                    throw .invalidFiles(error.errors)
                }
                translatesSomething = true
            }
        }
        var untranslated: [UntranslatedPhrase] = []
        if translatesSomething {
            for k in ruleFiles.indices where !ruleFiles[k].locale.isEmpty && ruleFiles[k].locale != ownLocale {
                for r in ruleFiles[k].rules.indices { ruleFiles[k].rules[r].translate(by: phrases, missing: &untranslated) }
            }
        }
        // The `early` rules of another language's files come before this language's own rules, in the
        // order of their files (Rules/README.md, "Early rules"): a reading of meaning English adds (a
        // transpose, a function space) reaches a language whose catch-all rules for the kind would hide
        // it. A rule of this language's files with the same name replaces it.
        if ruleFiles.count > 1 {
            var ownNames: Set<String> = []
            for file in ruleFiles where file.locale == ownLocale { for rule in file.rules { ownNames.insert(rule.name) } }
            var early: [SpeechRule] = []
            for k in ruleFiles.indices.dropFirst() where !ruleFiles[k].locale.isEmpty && ruleFiles[k].locale != ownLocale
                && ruleFiles[k].rules.contains(where: \.early) {
                early += ruleFiles[k].rules.filter { $0.early && !ownNames.contains($0.name) }
                ruleFiles[k].rules.removeAll { $0.early && !ownNames.contains($0.name) }
            }
            if !early.isEmpty { ruleFiles[0].rules = early + ruleFiles[0].rules }
        }
        var compiled = SpeechStyle(files: ruleFiles, words: words, fixingPreferencesOf: fixed)
        compiled.untranslatedPhrases = untranslated
        return compiled
    }
}

/// The rule files, locale words and compiled styles loaded from one ``SpeechResources``, kept for the
/// next speaker that needs them. Loading a speaker parses its style's rule files and what they inherit
/// and compiles them (`speak 'x^2' --locale fr`: 119 M instructions under callgrind, session 44); a
/// French speaker after an English one parsed `en/clearspeak.rules` again, and a speaker for the same
/// locale and style with other preferences (a batch line or a request that names some) compiled the
/// whole style again. Parsed rule files and locale words are kept for good — they are bounded by the
/// resources' files, whose text the resources hold anyway; compiled styles (the largest) only for
/// the ``styleCapacity`` last loaded. Thread-safe: a speaker pool and the service load speakers from
/// several threads.
private final class LoadedFiles: @unchecked Sendable {
    /// How many compiled styles are kept (as many as a ``SpeakerPool`` keeps speakers).
    static let styleCapacity = 16
    private let lock = NSLock()
    private var ruleFiles: [String: RuleFile] = [:]
    private var locales: [String: LocaleWords] = [:]
    private var styles: [String: SpeechStyle] = [:]
    private var styleOrder: [String] = []

    private func key(_ path: String, _ examples: Bool) -> String { examples ? path + "\u{1F}examples" : path }

    func ruleFile(_ path: String, examples: Bool) -> RuleFile? {
        lock.withLock { ruleFiles[key(path, examples)] }
    }

    func keep(_ file: RuleFile, for path: String, examples: Bool) {
        lock.withLock { ruleFiles[key(path, examples)] = file }
    }

    func localeWords(_ tag: String) -> LocaleWords? {
        lock.withLock { locales[tag] }
    }

    func keep(_ words: LocaleWords, for tag: String) {
        lock.withLock { locales[tag] = words }
    }

    func style(_ key: String) -> SpeechStyle? {
        lock.withLock { styles[key] }
    }

    func keep(_ style: SpeechStyle, for key: String) {
        lock.withLock {
            if styles.updateValue(style, forKey: key) == nil { styleOrder.append(key) }
            while styleOrder.count > LoadedFiles.styleCapacity { styles[styleOrder.removeFirst()] = nil }
        }
    }
}

/// The locales (`Locales/<tag>/locale.txt`, not `_template`) and the styles of each rules folder
/// (`Rules/<tag>/<style>.rules`) among the paths of a ``SpeechResources``, sorted.
private struct PathIndex: Sendable {
    var locales: [String] = []
    /// Rules folder → its styles.
    var styles: [String: [String]] = [:]
    /// The rules folders that have a style.
    var ruleFolders: [String] = []

    init(_ paths: Dictionary<String, String>.Keys) {
        for path in paths {
            // An ASCII path (every built-in file's) is read on its bytes, without Substrings.
            if add(asciiPath: path) { continue }
            // `Top/folder/name`, split on bytes (the paths of every built-in file are read here).
            let parts = path.utf8.split(separator: 0x2F)
            guard parts.count == 3 else { continue }
            let top = Substring(parts[0]), folder = String(Substring(parts[1])), name = Substring(parts[2])
            if top == "Locales", name == "locale.txt", !folder.hasPrefix("_") {
                locales.append(folder)
            } else if top == "Rules", name.hasSuffix(".rules") {
                styles[folder, default: []].append(String(name.dropLast(6)))
            }
        }
        locales.sort()
        for k in styles.keys { styles[k]!.sort() }
        ruleFolders = styles.keys.sorted()
    }

    /// Adds `path` as the loop above would, on its bytes, and returns true, when every byte of the
    /// path is printable ASCII (each byte then is a character, so comparing bytes is comparing
    /// characters); returns false for any other path. The paths of all built-in files are read here at
    /// every start-up (cold start, `BENCHMARKS.md`).
    private mutating func add(asciiPath path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes -> Bool in
            // The non-empty parts between slashes (as `split(separator:)` gives them), up to four.
            var starts = (0, 0, 0), ends = (0, 0, 0)
            var count = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                guard b >= 0x20, b < 0x7F else { return false }
                if b == 0x2F { i += 1; continue }
                var e = i + 1
                while e < bytes.count, bytes[e] != 0x2F {
                    guard bytes[e] >= 0x20, bytes[e] < 0x7F else { return false }
                    e += 1
                }
                switch count {
                case 0: starts.0 = i; ends.0 = e
                case 1: starts.1 = i; ends.1 = e
                case 2: starts.2 = i; ends.2 = e
                default: break
                }
                count += 1
                i = e
            }
            guard count == 3 else { return true }
            func equals(_ a: Int, _ b: Int, _ literal: StaticString) -> Bool {
                guard b - a == literal.utf8CodeUnitCount else { return false }
                for k in 0 ..< (b - a) where bytes[a + k] != literal.utf8Start[k] { return false }
                return true
            }
            func string(_ a: Int, _ b: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[a ..< b]), as: UTF8.self) }
            if equals(starts.0, ends.0, "Locales"), equals(starts.2, ends.2, "locale.txt"), bytes[starts.1] != 0x5F {
                locales.append(string(starts.1, ends.1))
            } else if equals(starts.0, ends.0, "Rules"), ends.2 - starts.2 >= 6, equals(ends.2 - 6, ends.2, ".rules") {
                styles[string(starts.1, ends.1), default: []].append(string(starts.2, ends.2 - 6))
            }
            return true
        }
    }
}

/// Why speech resources could not be loaded.
public enum SpeechLoadError: Error, Sendable, CustomStringConvertible {
    case unknownLocale(String, available: [String])
    case unknownStyle(String, locale: String, available: [String])
    case missingFile(String)
    /// A file named by an `inherit` line that does not exist: the path, and `file:line` of the line.
    case missingInheritedFile(String, inheritedAt: String)
    /// An override file that cannot be read or is not UTF-8: the path and why.
    case unreadableFile(String, reason: String)
    case missingOverrideDirectory(String)
    case inheritanceCycle(String)
    case invalidFiles([RuleFileError])
    /// Unknown preference names or values, with strict preferences (one message each).
    case invalidPreferences([PreferenceProblem])

    public var description: String {
        switch self {
        case let .unknownLocale(l, available): return "unknown locale '\(l)'; available: \(available.joined(separator: ", "))"
        case let .unknownStyle(s, locale, available):
            return "no style '\(s)' for locale '\(locale)'; available: \(available.joined(separator: ", "))"
        case let .missingFile(f): return "missing file \(f)"
        case let .missingInheritedFile(f, at): return "\(at): error: inherit names \(f), which does not exist"
        case let .unreadableFile(f, reason): return "cannot use the rules file \(f): \(reason)"
        case let .missingOverrideDirectory(d): return "rules directory '\(d)' does not exist"
        case let .inheritanceCycle(t): return "locale '\(t)' inherits from itself"
        case let .invalidFiles(errors): return errors.map(\.description).joined(separator: "\n")
        case let .invalidPreferences(problems): return problems.map(\.description).joined(separator: "; ")
        }
    }
}
