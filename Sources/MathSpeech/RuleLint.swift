import MathSyntax
import MathSemantics

/// One finding of `mathaloud rules lint`: where, how bad, and what is wrong.
public struct LintFinding: Hashable, Sendable, CustomStringConvertible {
    /// How bad a finding is: an error makes `rules lint` exit 1; a warning is a to-do.
    public enum Severity: String, Hashable, Sendable { case error, warning }

    /// What a finding is about, where a test holds one class of findings to zero (issue 13: no word of
    /// another language reaches a listener of a shipped locale).
    public enum Kind: String, Hashable, Sendable {
        /// A phrase of a rule inherited from another language that no phrase file of the locale translates.
        case untranslatedPhrase = "untranslated-phrase"
        /// A word the locale takes from another language: a style word of another language's word file,
        /// a symbol or number word only its parent locale of another language has, or a font with no name
        /// in the locale's language.
        case foreignWord = "foreign-word"
        /// A key of a style's word file of another language (English MathSpeak's `⩾  greater-than-or-slanted-equals`)
        /// that the locale neither gives in its own style words nor has in its own word files: the style
        /// says it in that language (and reports it). At the key in that file; the locales' to-do,
        /// not held to zero.
        case otherLanguageStyleWord = "other-language-style-word"
        /// Any other finding.
        case other
    }

    /// The file as an author finds it (`Rules/de/clearspeak.rules`, or the path in the rules folder).
    public let file: String
    /// 1-based line and column (0 when the finding is about a whole file).
    public let line: Int
    public let column: Int
    public let severity: Severity
    /// What is wrong, and what to do.
    public let message: String
    /// The rule the finding is in, if any.
    public let rule: String?
    /// What the finding is about.
    public let kind: Kind

    /// Creates a finding.
    public init(file: String, line: Int, column: Int, severity: Severity, message: String, rule: String? = nil, kind: Kind = .other) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
        self.rule = rule
    }

    /// `file:line:column: error: message (in rule 'name')`, as compilers print.
    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return "\(place): \(severity.rawValue): \(message)" + (rule.map { " (in rule '\($0)')" } ?? "")
    }
}

/// The checks of `mathaloud rules lint` that read the files without speaking anything (Rules/README.md,
/// "Checking a locale"): every file of the locale parses; rules name only kinds, roles, properties and
/// preferences that exist; no rule is shadowed by an earlier rule of its file; every word a template
/// asks for (`{@key}`, counted words, level words) is in the locale; the phrases of inherited rules are
/// translated; no word of the locale is left marked `# to-do:`. Running the inline examples needs the
/// whole pipeline and is done by the `MathAloud` library (`LocaleTools`).
public enum RuleLint {
    /// The findings for locale `tag` in `resources`, sorted by file and line.
    public static func check(_ resources: SpeechResources, locale tag: String) -> [LintFinding] {
        var findings: [LintFinding] = []
        func add(_ file: String, _ line: Int, _ column: Int, _ severity: LintFinding.Severity, _ message: String, rule: String? = nil) {
            findings.append(LintFinding(file: file, line: line, column: column, severity: severity, message: message, rule: rule))
        }
        func add(_ errors: [RuleFileError], relativeTo folder: String) {
            for e in errors {
                let path = e.file.hasPrefix("override:") ? String(e.file.dropFirst("override:".count)) : folder + e.file
                add(resources.displayPath(path), e.line, e.column, .error, e.message, rule: e.rule)
            }
        }
        guard resources.files["Locales/\(tag)/locale.txt"] != nil else {
            add("Locales/\(tag)/locale.txt", 0, 0, .error,
                "no locale '\(tag)' (no Locales/\(tag)/locale.txt); the locales are \(resources.locales.joined(separator: ", "))")
            return findings
        }

        // 1. Every file of the locale parses (a word key defined twice is an error of its file).
        let own = resources.files.keys.filter { $0.hasPrefix("Locales/\(tag)/") || $0.hasPrefix("Rules/\(tag)/") }.sorted()
        var wordTables: [String: WordTable] = [:]
        for path in own {
            let text = resources.files[path]!
            let folder = path.hasPrefix("Rules/") ? "Rules/" : "Locales/\(tag)/"
            do throws(RuleFileErrors) {
                if path.hasSuffix(".rules") {
                    _ = try RuleFile(parsing: text, file: String(path.dropFirst(6)))
                } else if path.hasSuffix(".phrases") {
                    _ = try PhraseTable(parsing: text, file: String(path.dropFirst(6)))
                } else {
                    let name = path.hasPrefix("Rules/") ? String(path.dropFirst(6)) : String(path.dropFirst(folder.count))
                    wordTables[path] = try WordTable(parsing: text, file: name)
                    if let override = resources.wordOverrides[path] { _ = try WordTable(parsing: override, file: "override:" + path) }
                }
            } catch {
                add(error.errors, relativeTo: folder)
            }
            // Words an author has not written yet (`mathaloud locale new` lists them as `# to-do:` lines).
            let todo = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { $0.element.hasPrefix("# to-do:") }
            if let first = todo.first {
                add(resources.displayPath(path), first.offset + 1, 1, .warning,
                    "\(todo.count) entr\(todo.count == 1 ? "y" : "ies") still marked '# to-do:' (the first: '\(first.element.dropFirst(8).trimmingSpaces)')")
            }
        }
        // The locale's settings and words, with its parents.
        // (When they do not load, the rules are still checked, without the words.)
        var chain: [LocaleWords]? = nil
        do throws(SpeechLoadError) { chain = try resources.lexiconChain(for: tag) } catch {
            if case .invalidFiles(let errors) = error {
                // Errors of files already reported by their own check are not repeated.
                let reported = Set(findings.map { "\($0.file):\($0.line):\($0.column)" })
                add(errors.filter { !reported.contains("\(resources.displayPath("Locales/" + $0.file)):\($0.line):\($0.column)") }, relativeTo: "Locales/")
            } else { add("Locales/\(tag)/locale.txt", 0, 0, .error, error.description) }
        }

        // 2. Each style that speaks the locale.
        var styles = Set(resources.styles(for: tag))
        for name in ["clearspeak", "simplespeak", "mathspeak", "literalspeak"] where resources.rulesLocale(for: LocaleTag(tag), style: SpeechStyleName(name)) != nil {
            styles.insert(name)
        }
        for name in styles.sorted() {
            let style: SpeechStyle
            do throws(SpeechLoadError) { style = try resources.style(name, locale: tag, examples: true) } catch {
                if case .invalidFiles(let errors) = error { add(errors, relativeTo: "Rules/") } else {
                    add("Rules/\(tag)/\(name).rules", 0, 0, .error, error.description)
                }
                continue
            }
            let lexicon = chain.map { Lexicon(chain: $0, styleWords: style.words) }
            checkStyle(style, lexicon: lexicon, locale: tag, resources: resources, add: { findings.append($0) })
            if let lexicon { otherLanguageStyleWords(name, lexicon: lexicon, locale: tag, resources: resources, add: { findings.append($0) }) }
        }

        // 3. Fonts: every font English names (the `font` values the analysis writes) has a name here.
        if let chain, LocaleTag(tag).language != "en", let english = try? resources.wordTable("Locales/en/fonts.txt") {
            let language = LocaleTag(tag).language
            let missing = english.entries.keys.filter { key in
                !chain.contains { LocaleTag($0.tag).language == language && $0.fonts.entries[key] != nil }
            }.sorted()
            if !missing.isEmpty {
                findings.append(LintFinding(
                    file: resources.displayPath("Locales/\(tag)/fonts.txt"), line: 0, column: 0, severity: .warning,
                    message: "no name for the font\(missing.count == 1 ? "" : "s") \(missing.prefix(8).joined(separator: ", "))\(missing.count > 8 ? ", … (\(missing.count))" : "") (see Locales/en/fonts.txt)",
                    kind: .foreignWord))
            }
        }
        // 4. A word key run into its words (`unnamed-characterकरक्षर {code}`: no space after the key), found
        // as a key that is English's key of the same file with more after it, where the locale has no
        // entry for the English key itself.
        if LocaleTag(tag).language != "en" {
            for (path, table) in wordTables.sorted(by: { $0.key < $1.key })
            where (path.hasSuffix(".txt") || path.hasSuffix(".words")) && !path.hasSuffix("locale.txt") {
                let englishPath = (path.hasPrefix("Rules/") ? "Rules/en/" : "Locales/en/") + path.split(separator: "/").last!
                guard let english = try? resources.wordTable(englishPath) else { continue }
                let candidates = english.entries.keys.filter { $0.count >= 6 && table.entries[$0] == nil }
                guard !candidates.isEmpty else { continue }
                for (key, entry) in table.entries where english.entries[key] == nil {
                    // What follows the English key starts a word (a key of its own, `letters.capital-after`, goes on
                    // after a mark), and the key has no space (a key of several words, `kilometers\sper\shour`,
                    // is written so on purpose; a key run into its words never has one).
                    guard !key.contains(" "), let known = candidates.first(where: { key.hasPrefix($0) && key.count >= $0.count + 3
                        && key.dropFirst($0.count).first?.isLetter == true }) else { continue }
                    add(resources.displayPath(path), entry.line, 1, .error,
                        "the key '\(key)' is English's key '\(known)' run into its words: put spaces between a key and its words")
                }
            }
        }
        // 5. Contractions whose key the speech engine cannot read (``Contractions/problem(withKey:)``), or
        // whose words ask for a form (`*@genitive`) no word of the locale's `forms.txt` has: they would
        // change nothing, silently.
        let formNames = Set((chain ?? []).flatMap { $0.forms.entries.values.flatMap(\.variants.keys) })
        for (path, table) in wordTables.sorted(by: { $0.key < $1.key }) where path.hasSuffix("/contractions.txt") {
            for (key, entry) in table.entries.sorted(by: { $0.value.line < $1.value.line }) {
                if let problem = Contractions.problem(withKey: key) { add(resources.displayPath(path), entry.line, 1, .error, problem) }
                if let name = Contractions.formName(in: entry.words) {
                    if !formNames.contains(name) {
                        add(resources.displayPath(path), entry.line, 1, .warning,
                            "'*@\(name)' asks for a form no word of forms.txt has ('WORD  WORD | \(name): …'): the entry changes nothing")
                    }
                }
            }
        }
        return unique(findings)
    }

    /// The keys of a style's word file of another language (English MathSpeak's, under a locale that
    /// inherits its rules) that the locale says in that language: neither its own words of the style
    /// (`Rules/<tag>/<style>.words`) nor its own word files (`symbols.txt`, `numbers.txt`; `functions.txt`
    /// for `fn.NAME`, `fonts.txt` for `font.NAME`) nor a parent's have the key, and no font and letter of
    /// the locale's compose it. One warning per key, at the key in that file.
    static func otherLanguageStyleWords(_ style: String, lexicon: Lexicon, locale tag: String, resources: SpeechResources,
                                        add: (LintFinding) -> Void) {
        let other = lexicon.otherLanguageStyleWords
        guard !other.entries.isEmpty else { return }
        // A locale that names a capital after its letter (`letters.capital-after`, French "A majuscule")
        // needs no word before it.
        let capitalAfter = lexicon.symbol("letters.capital-after", variant: nil) != nil
        // Keys the locale's own file of the style lists as `# to-do:` (`mathaloud locale new` writes every
        // one) are that file's to-do warning already, not one warning each.
        let todo = todoKeys(resources.files["Rules/\(tag)/\(style).words"])
        for (key, entry) in other.entries.sorted(by: { ($0.value.file, $0.value.line) < ($1.value.file, $1.value.line) })
            where !todo.contains(key) {
            if key.hasPrefix("fn.") {
                if lexicon.function(String(key.dropFirst(3)), variant: nil) != nil
                    || lexicon.foreignWords(String(key.dropFirst(3)), in: "functions", variant: nil) != nil { continue }
            } else if key.hasPrefix("font.") {
                if lexicon.font(String(key.dropFirst(5)), variant: nil) != nil { continue }
            } else {
                if lexicon.keyed(key, variants: []) != nil || lexicon.foreignWords(key, in: "symbols", variant: nil) != nil
                    || lexicon.foreignWords(key, in: "numbers", variant: nil) != nil { continue }
                if let scalar = key.unicodeScalars.first, key.unicodeScalars.count == 1,
                   lexicon.styledCharacter(scalar, variant: nil) != nil { continue }
                if key == "letters.capital" && capitalAfter { continue }
            }
            let file = entry.file.hasPrefix("override:") ? String(entry.file.dropFirst("override:".count)) : "Rules/" + entry.file
            let owner = Lexicon.language(ofStyleWordFile: entry.file) ?? "another language"
            let own = "Rules/\(tag)/\(file.split(separator: "/").last ?? "")"
            let where_ = key.hasPrefix("fn.") ? "\(own) (or Locales/\(tag)/functions.txt)"
                : key.hasPrefix("font.") ? "\(own) (or Locales/\(tag)/fonts.txt)"
                : key.contains(".") && key.unicodeScalars.count > 1 ? own : "\(own) or Locales/\(tag)/symbols.txt"
            add(LintFinding(file: resources.displayPath(file), line: entry.line, column: entry.column, severity: .warning,
                            message: "\(style) says '\(displayKey(key))' in \(owner) ('\(entry.words)'): give it in \(where_)",
                            kind: .otherLanguageStyleWord))
        }
    }

    /// The keys of a word file's `# to-do:` lines (the entries written after the mark), read as the file's
    /// entries are; none for a file that has none or whose to-do lines do not parse.
    static func todoKeys(_ text: String?) -> Set<String> {
        guard let text, text.contains("# to-do:") else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("# to-do:") }.map { $0.dropFirst("# to-do:".count).trimmingSpaces }
        guard let table = try? WordTable(parsing: lines.joined(separator: "\n"), file: "to-do") else { return [] }
        return Set(table.entries.keys)
    }

    /// A word key as an author writes it: invisible and combining characters, spaces and the backslash as
    /// `\u{XXXX}`.
    static func displayKey(_ key: String) -> String {
        key.unicodeScalars.map { s -> String in
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark, .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator:
                let hex = String(s.value, radix: 16, uppercase: true)
                return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
            default: return s == "\\" ? "\\u{005C}" : String(s)
            }
        }.joined()
    }

    private static func unique(_ findings: [LintFinding]) -> [LintFinding] {
        var seen: Set<LintFinding> = []
        return findings.filter { seen.insert($0).inserted }.sorted {
            ($0.file, $0.line, $0.column, $0.message) < ($1.file, $1.line, $1.column, $1.message)
        }
    }

    /// The message for step `step` of a condition's path that names no role (``checkStyle``).
    static func unknownRoleMessage(_ step: String, in path: [String]) -> String {
        let written = path.joined(separator: ".")
        if step == "parent" || step == "next" || step == "previous" {
            return "'\(step)' in '\(written)' can only begin a path (parent steps, or next/previous steps, then child roles); here it would name a child role"
        }
        return "unknown role '\(step)' in '\(written)'"
    }

    /// The checks of one compiled style.
    static func checkStyle(_ style: SpeechStyle, lexicon: Lexicon?, locale tag: String, resources: SpeechResources,
                           add: (LintFinding) -> Void) {
        let declared = style.preferences + style.fixedPreferences
        func preference(_ name: String) -> PreferenceDeclaration? {
            let key = name.lowercased()
            return declared.first { $0.name.lowercased() == key || $0.aliases.contains { $0.lowercased() == key } }
                ?? declared.first { $0.name.lowercased() == key + "s" || (key.hasSuffix("s") && $0.name.lowercased() + "s" == key) }
        }
        let vocabularyKinds = Set(SemanticKind.allCases.map(\.rawValue))
        let roleNames = Set(SemanticRole.allCases.map(\.name))
        func unknownKinds(_ kinds: [String]) -> [String] { kinds.filter { $0 != "*" && !vocabularyKinds.contains($0) } }
        func unknownProperty(_ name: String) -> Bool {
            PropertyName(name: name) == nil && PropertyReference.Pseudo(name: name) == .none
        }
        /// The steps of `path` that are no role: an unknown name, or `parent`, `next` or `previous` among the
        /// children after the path's leading steps (``CompiledCondition/Step/leading(_:)``, the compiler's
        /// reading: `parent.parent.next` would look for a child in the role `next` and never match).
        func unknownConditionPath(_ path: [String]) -> [String] {
            CompiledCondition.Step.leading(path).children.filter { $0 != "last" && $0 != "first" && !roleNames.contains($0) }
        }
        let ownPrefix = "\(tag)/"
        var lookedUp: [String: (rule: SpeechRule, position: RulePosition)] = [:]
        var counted: [String: (rule: SpeechRule, position: RulePosition)] = [:]
        var levels: [String: (rule: SpeechRule, position: RulePosition)] = [:]

        for rule in style.rules {
            let isOwn = rule.file.hasPrefix(ownPrefix)
            let path = resources.displayPath("Rules/" + rule.file)
            func position(_ positions: [RulePosition], condition i: Int) -> RulePosition {
                i < positions.count ? positions[i] : RulePosition(line: rule.line, column: 1)
            }
            func position(part i: Int) -> RulePosition {
                i < rule.templatePositions.count ? rule.templatePositions[i] : RulePosition(line: rule.line, column: 1)
            }
            if isOwn {
                func error(_ p: RulePosition, _ message: String) {
                    add(LintFinding(file: path, line: p.line, column: p.column, severity: .error, message: message, rule: rule.name))
                }
                if !unknownKinds([rule.kind]).isEmpty {
                    error(RulePosition(line: rule.line, column: 1), "unknown kind '\(rule.kind)' (the kinds are listed in Sources/MathSemantics/SemanticNode.swift; `speak --explain` shows them)")
                }
                // Each condition as written: the `when` lines', then each `either`/`or` line's.
                for (conditions, positions) in [(rule.conditions, rule.conditionPositions)] + zip(rule.alternatives, rule.alternativePositions).map({ ($0, $1) }) {
                for (i, condition) in conditions.enumerated() {
                    let p = position(positions, condition: i)
                    switch condition {
                    case let .property(path, name, _, _):
                        for r in unknownConditionPath(path) { error(p, Self.unknownRoleMessage(r, in: path + [name])) }
                        if unknownProperty(name) { error(p, "unknown property '\(name)' (`speak --explain` lists every node's properties)") }
                    case let .preference(name, test, _):
                        guard let d = preference(name) else {
                            error(p, "unknown preference '\(name)'; the style's preferences are \(declared.map(\.name).joined(separator: ", "))")
                            continue
                        }
                        if case .oneOf(let values) = test {
                            for v in values where !d.values.contains(where: { $0.lowercased() == v.lowercased() }) {
                                error(p, "preference \(d.name) has no value '\(v)'; its values are \(d.values.joined(separator: ", "))")
                            }
                        }
                    case let .kind(path, kinds, _):
                        for r in unknownConditionPath(path) { error(p, Self.unknownRoleMessage(r, in: path)) }
                        for k in unknownKinds(kinds) { error(p, "unknown kind '\(k)'") }
                    case let .parentKind(kinds, _), let .within(kinds, _):
                        for k in unknownKinds(kinds) { error(p, "unknown kind '\(k)'") }
                    case let .withinThrough(kinds, through, _):
                        for k in unknownKinds(kinds + through) { error(p, "unknown kind '\(k)'") }
                    case let .role(roles, _):
                        for r in roles where !roleNames.contains(r) { error(p, "unknown role '\(r)'") }
                    case .followed, .first: break
                    }
                }
                }
                for (i, part) in rule.template.enumerated() {
                    let p = position(part: i)
                    switch part {
                    case let .child(role, _) where role == "first" || role == "last":
                        break  // the first or last child, whatever its role
                    case let .child(role, _), let .leveled(role, _):
                        for r in role.split(separator: ".").map(String.init) where !roleNames.contains(r) {
                            error(p, "unknown role '\(r)' in {\(role)}")
                        }
                    case let .property(name, _):
                        if unknownProperty(name) { error(p, "unknown property '\(name)' in {=\(name)}") }
                    case let .countedLookup(_, name):
                        if unknownProperty(name) { error(p, "unknown property '\(name)' in a counted word") }
                    default: break
                    }
                }
                for example in rule.examples {
                    for name in example.preferences.keys.sorted() {
                        guard let d = preference(name) else {
                            error(RulePosition(line: example.line, column: 1), "example sets unknown preference '\(name)'")
                            continue
                        }
                        let value = example.preferences[name]!
                        if !d.values.contains(where: { $0.lowercased() == value.lowercased() }) {
                            error(RulePosition(line: example.line, column: 1), "example sets \(d.name) to '\(value)'; its values are \(d.values.joined(separator: ", "))")
                        }
                    }
                }
            }
            // Words every rule the locale speaks with asks for, own or inherited.
            for (i, part) in rule.template.enumerated() {
                switch part {
                case let .lookup(key, _): if lookedUp[key] == nil { lookedUp[key] = (rule, position(part: i)) }
                case let .countedLookup(key, _): if counted[key] == nil { counted[key] = (rule, position(part: i)) }
                case let .leveled(_, level): if levels[level] == nil { levels[level] = (rule, position(part: i)) }
                default: break
                }
            }
        }

        // Shadowed rules: a rule after another rule of its file for the same kind (or after a rule for
        // `*`) whose conditions are all among its own can never fire.
        let ownRules = style.rules.filter { $0.file.hasPrefix(ownPrefix) }
        var byFile: [String: [SpeechRule]] = [:]
        for r in ownRules { byFile[r.file, default: []].append(r) }
        // With `either`/`or`, a set of conditions (the `when` lines' with one alternative's) is
        // unreachable when one set of an earlier rule, or an earlier set of the same rule, is among it;
        // the rule, when all its sets are.
        for (file, rules) in byFile {
            let sets = rules.map { $0.conditionSets.map { Set($0.conditions) } }
            for j in rules.indices {
                var shadowing: [(rule: Int, set: Int)?] = []
                for (k, set) in sets[j].enumerated() {
                    let earlier = sets[j][..<k].firstIndex { $0.isSubset(of: set) }.map { (rule: j, set: $0) }
                    shadowing.append(earlier ?? (0 ..< j).lazy.compactMap { i -> (rule: Int, set: Int)? in
                        guard rules[i].kind == rules[j].kind || rules[i].kind == "*" else { return nil }
                        return sets[i].firstIndex { $0.isSubset(of: set) }.map { (rule: i, set: $0) }
                    }.first)
                }
                let path = resources.displayPath("Rules/" + file)
                if shadowing.allSatisfy({ $0 != nil }), let i = shadowing.first??.rule {
                    add(LintFinding(file: path, line: rules[j].line, column: 1, severity: .error,
                                    message: "no input can reach this rule: rule '\(rules[i].name)' (line \(rules[i].line)) comes first and its conditions are all among this rule's",
                                    rule: rules[j].name))
                    continue
                }
                for (k, found) in shadowing.enumerated() {
                    guard case let (i, set)? = found else { continue }
                    // An alternative is reported on its `either`/`or` line.
                    let at = rules[j].alternativePositions[k].first ?? RulePosition(line: rules[j].line, column: 1)
                    let other = i == j ? "the line \(rules[j].alternativePositions[set].first?.line ?? rules[j].line) of this rule"
                        : "rule '\(rules[i].name)' (line \(rules[i].line))"
                    add(LintFinding(file: path, line: at.line, column: at.column, severity: .error,
                                    message: "no input can reach this choice: \(other) comes first and its conditions are all among these",
                                    rule: rules[j].name))
                }
            }
        }

        // Words the templates ask for.
        guard let lexicon else { return untranslated(style, locale: tag, resources: resources, add: add) }
        // Symbols the locale still lists as `# to-do:` (`mathaloud locale new` writes every one of the
        // source locale's) are its file's to-do warning already, as the style words' are.
        let todoSymbols = todoKeys(resources.files["Locales/\(tag)/symbols.txt"])
        func missing(_ key: String, _ at: (rule: SpeechRule, position: RulePosition), _ what: String) {
            if todoSymbols.contains(key) { return }
            let words = tag == style.locale ? "Rules/\(tag)/*.words or Locales/\(tag)/symbols.txt" : "Locales/\(tag)/symbols.txt (or a words file of the style)"
            // A word only a style's word file of another language gives (said in that language, last).
            if let (_, entry) = lexicon.otherLanguageStyleWord(key, variants: []) {
                let owner = Lexicon.language(ofStyleWordFile: entry.file) ?? "another language"
                add(LintFinding(file: resources.displayPath("Rules/" + at.rule.file), line: at.position.line, column: at.position.column,
                                severity: .warning, message: "\(what) '\(key)' comes from \(entry.file) (\(owner)); give it in a words file of Rules/\(tag)/",
                                rule: at.rule.name, kind: .foreignWord))
                return
            }
            if let (_, parent) = lexicon.foreignWords(key, in: "symbols", variant: nil) ?? lexicon.foreignWords(key, in: "numbers", variant: nil) {
                add(LintFinding(file: resources.displayPath("Rules/" + at.rule.file), line: at.position.line, column: at.position.column,
                                severity: .warning, message: "\(what) '\(key)' is only in \(parent) (said in that language); add it to \(words)", rule: at.rule.name, kind: .foreignWord))
                return
            }
            // A rule inherited from another language asks for a word the locale has not given yet: its
            // to-do (the listener hears the fallback), as an untranslated phrase of that rule is; a word
            // the locale's own template asks for and no file gives is a mistake.
            let inherited = !at.rule.file.hasPrefix(ownPrefix)
            add(LintFinding(file: resources.displayPath("Rules/" + at.rule.file), line: at.position.line, column: at.position.column,
                            severity: inherited ? .warning : .error,
                            message: "\(what) '\(key)' is missing in locale \(tag); add it to \(words)", rule: at.rule.name,
                            kind: inherited ? .foreignWord : .other))
        }
        for (key, at) in lookedUp.sorted(by: { $0.key < $1.key }) where lexicon.keyed(key, variants: []) == nil {
            // (A word of an inherited style's word file of another language is a warning: ``missing``.)
            missing(key, at, "the word")
        }
        for (key, at) in counted.sorted(by: { $0.key < $1.key })
        where lexicon.keyed(key + ".*", variants: []) == nil && lexicon.keyed(key + ".0", variants: []) == nil && lexicon.keyed(key + ".1", variants: []) == nil {
            missing(key + ".*", at, "the counted word")
        }
        if let prefix = style.levelWords, let first = levels.values.first {
            if lexicon.keyed(prefix + ".base", variants: []) == nil { missing(prefix + ".base", first, "the level word") }
            for (level, at) in levels.sorted(by: { $0.key < $1.key }) where lexicon.keyed("\(prefix).\(level)", variants: []) == nil {
                missing("\(prefix).\(level)", at, "the level word")
            }
        }

        untranslated(style, locale: tag, resources: resources, add: add)
    }

    /// Phrases of rules inherited from another language that are not translated: one warning per
    /// phrase, at its first use, with how many rules use it.
    static func untranslated(_ style: SpeechStyle, locale tag: String, resources: SpeechResources, add: (LintFinding) -> Void) {
        var uses: [String: [UntranslatedPhrase]] = [:]
        var order: [String] = []
        for u in style.untranslatedPhrases {
            if uses[u.phrase] == nil { order.append(u.phrase) }
            uses[u.phrase, default: []].append(u)
        }
        for phrase in order {
            let u = uses[phrase]![0], count = uses[phrase]!.count
            let parts = u.location.split(separator: ":")
            let file = parts.count == 2 ? String(parts[0]) : u.location
            let line = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
            add(LintFinding(file: resources.displayPath("Rules/" + file), line: line, column: 1, severity: .warning,
                            message: "phrase '\(phrase)' has no translation in Rules/\(tag)/*.phrases, so it is said in the inherited language"
                                + (count > 1 ? " (in \(count) rules; this is the first)" : ""),
                            rule: u.rule, kind: .untranslatedPhrase))
        }
    }
}
