import MathSyntax

/// A test on a value in a rule condition.
public enum ValueTest: Hashable, Sendable {
    /// The value is present (a flag is set).
    case present
    /// The value is one of these (ignoring ASCII case, except for the `text` property).
    case oneOf([String])
    /// The value is a number less than / greater than this.
    case less(Double)
    case greater(Double)
}

/// One condition of a rule (`when …` lines in a rule file; see `Rules/README.md`).
public enum RuleCondition: Hashable, Sendable {
    /// A property of this node or of a child reached by roles (`numerator.simple`, `rows = 1`).
    case property(path: [String], name: String, test: ValueTest, negated: Bool)
    /// A preference value (`pref Fractions in Auto, Ordinal`).
    case preference(name: String, test: ValueTest, negated: Bool)
    /// The kind of this node's child with a role, or of this node itself (`numerator is number`).
    case kind(path: [String], kinds: [String], negated: Bool)
    /// The kind of the parent (`parent is big-operator`).
    case parentKind(kinds: [String], negated: Bool)
    /// The parent's role for this node (`role is exponent`).
    case role(roles: [String], negated: Bool)
    /// Something is spoken after this node inside its parent (`followed`).
    case followed(negated: Bool)
    /// This node is the first child of its parent (`first`).
    case first(negated: Bool)
    /// Some ancestor has one of these kinds (`within set-builder`).
    case within(kinds: [String], negated: Bool)
    /// The nearest ancestor whose kind is not one of `through` has one of `kinds`
    /// (`within fraction through infix, implied-times`: a fraction in a sum in a numerator, but not
    /// one under a root in a numerator).
    case withinThrough(kinds: [String], through: [String], negated: Bool)
}

/// One part of a `say` template.
public enum TemplatePart: Hashable, Sendable {
    /// Literal words.
    case words(String)
    /// A pause (`,` short, `;` medium, `.` long).
    case pause(SpeechDescription.Pause)
    /// The children with a role, spoken (`{numerator}`), optionally formatted (`{denominator:ordinal}`).
    case child(role: String, format: TemplateFormat?)
    /// All children in order (`{children}`).
    case children
    /// The node's own text through the lexicon (`{text}`), or formatted (`{text:raw}`).
    case text(format: TemplateFormat?)
    /// A property's value (`{=rows}`, `{=nesting:ordinal}`, `{=open:word}`).
    case property(name: String, format: TemplateFormat?)
    /// Words from the word tables by key (`{@open-paren}`), in a variant (`{@row@plural(=rows)}`).
    case lookup(key: String, variants: [TemplateFormat.Variant])
    /// Words by key for a count (`{@ms.start-root[root-depth]}`): the entry `KEY.N` for the value N of
    /// the node's property (0 when absent), else the entry `KEY.*` with `{n}` replaced by N (and
    /// `{n+1}` by N + 1, `{n:WORD}` by WORD repeated N times, `{n+1:WORD}` N + 1 times).
    case countedLookup(key: String, property: String)
    /// The children with a role (or a path of roles) spoken at a script level (`{exponent@super}`):
    /// when the words spoken change level, the style's level indicator is said first (see
    /// ``RuleFile/levelWords``).
    case leveled(role: String, level: String)
    /// The indicator of the node's own script level, when the words before it were on another level
    /// (`{level}`: "x Superscript b Baseline Subscript a" for a subscript on `x^b`).
    case levelMark
    /// Takes up the node's own script level without its indicator (`{level:silent}`): the words before
    /// end on their level and nothing marks the return (a table cell's last words: "x Superscript n
    /// 2nd Column", MathSpeak's example 8.11.1).
    case levelSilent
    /// Joins the words before and after without a space, with this text between (`}-{` in a template:
    /// `{numerator:cardinal}-{denominator:denominator}` → "one-third").
    case joiner(String)
    /// What the inherited files' rules say for the node (`{inherited}`): the first of their rules
    /// whose conditions hold speaks it (or the built-in default when none does). A style that
    /// overrides a kind hands a node back to the style it inherits (SimpleSpeak leaves the sets of
    /// numbers and derivatives to ClearSpeak's rules).
    case inherited
}

/// An inline example: TeX, preferences, and the speech the rule must produce.
public struct RuleExample: Hashable, Sendable {
    /// The input: TeX, or MathML when it starts with `<math`.
    public let tex: String
    /// Preferences set for this example.
    public let preferences: [String: String]
    /// The expected speech (plain text).
    public let speech: String
    /// Where it is written.
    public let file: String
    public let line: Int
    /// Whether the pauses count (`[Pauses=Exact]`, which is no preference): the speech must have the
    /// expectation's commas and semicolons where it has them; otherwise they are ignored, as corpora
    /// compare.
    public var exactPauses = false
}

/// One rule: for a semantic kind, when conditions hold, say a template.
public struct SpeechRule: Hashable, Sendable {
    /// The rule's name (unique in its file).
    public let name: String
    /// The semantic kind it applies to (`fraction`), or `*` for any.
    public let kind: String
    /// All must hold (and, when the rule has ``alternatives``, all of one of them).
    public internal(set) var conditions: [RuleCondition]
    /// What to say.
    public internal(set) var template: [TemplatePart]
    /// Inline examples.
    public internal(set) var examples: [RuleExample]
    /// Where it is defined.
    public let file: String
    public let line: Int
    /// Where each condition and each template part is written (for `rules lint`).
    public var conditionPositions: [RulePosition] = []
    public var templatePositions: [RulePosition] = []
    /// Written `early`: in a file of another language that inherits this rule's file, the rule is tried
    /// before that file's own rules (a reading of meaning that a language's catch-all rules for the
    /// kind would otherwise hide), unless that language's files define a rule of the same name, which
    /// replaces it (``SpeechResources/style(_:locale:examples:)``).
    public var early = false
    /// Sets of conditions of which one must hold besides ``conditions``: an `either` line and the `or`
    /// lines after it. The rule speaks a node when all of ``conditions`` and all of one of these hold;
    /// a style compiles each set as a rule of its own, with the same name, template and place
    /// (``SpeechStyle/init(files:words:fixingPreferencesOf:)``).
    public var alternatives: [[RuleCondition]] = []
    /// Where each condition of each alternative is written.
    public var alternativePositions: [[RulePosition]] = []

    /// The sets of conditions under which the rule speaks: ``conditions`` with each alternative (or
    /// alone, when there is none), with where each condition is written.
    public var conditionSets: [(conditions: [RuleCondition], positions: [RulePosition])] {
        alternatives.isEmpty ? [(conditions, conditionPositions)]
            : zip(alternatives, alternativePositions).map { (conditions + $0, conditionPositions + $1) }
    }

    /// The rule as a style compiles it: one rule per set of ``conditionSets`` (the examples stay with
    /// the first).
    public var compiled: [SpeechRule] {
        guard !alternatives.isEmpty else { return [self] }
        // Copies of the rule, each with one set: a rule made field by field had dropped a field once
        // (the phrase table's copy lost the choices, session 41).
        return conditionSets.enumerated().map { k, set in
            var rule = self
            rule.conditions = set.conditions
            rule.conditionPositions = set.positions
            rule.alternatives = []
            rule.alternativePositions = []
            if k > 0 { rule.examples = [] }
            return rule
        }
    }
}

/// A line and column (1-based, in characters) in a rule file.
public struct RulePosition: Hashable, Sendable {
    public let line: Int
    public let column: Int
}

/// A preference a style declares: its name, allowed values (the first is the default) and aliases.
public struct PreferenceDeclaration: Hashable, Sendable {
    /// The canonical name (`Fractions`).
    public let name: String
    /// Allowed values, canonical spelling; the first is the default.
    public let values: [String]
    /// Other accepted names (`Fraction`, `Caps`).
    public let aliases: [String]
}

/// An `inherit` line of a rule file: another rule file whose rules apply after the inheriting file's.
public struct RuleInheritance: Hashable, Sendable {
    /// The inherited file, without `.rules` (`en/clearspeak`).
    public let path: String
    /// Whether the inherited file's preferences are offered by the inheriting style (`inherit PATH`).
    /// When not (`inherit PATH without preferences`), its rules see each of its preferences at the
    /// default value, and a request for one is unknown to the inheriting style unless that style
    /// declares the preference itself.
    public let offersPreferences: Bool

    /// Creates an `inherit` line.
    public init(path: String, offersPreferences: Bool = true) {
        self.path = path
        self.offersPreferences = offersPreferences
    }
}

/// A parsed rule file (`Rules/<locale>/<style>.rules`).
public struct RuleFile: Hashable, Sendable {
    /// The file name as given (e.g. `en/clearspeak.rules`).
    public let file: String
    /// `style NAME`.
    public var style: String = ""
    /// `locale TAG`.
    public var locale: String = ""
    /// `inherit PATH` and `inherit PATH without preferences` lines: other rule files whose rules
    /// apply after this file's.
    public var inherits: [RuleInheritance] = []
    /// The line of each `inherit` (parallel to ``inherits``), for errors about the file it names.
    public var inheritLines: [Int] = []
    /// `words NAME` lines: word files of this style (`Rules/<locale>/NAME.words`).
    public var wordFiles: [String] = []
    /// `phrases NAME` lines: translations of the inherited rules' words (`Rules/<locale>/NAME.phrases`,
    /// see ``PhraseTable``).
    public var phraseFiles: [String] = []
    /// `levels PREFIX`: the style tracks script levels (MathSpeak chapter 8). Words spoken at another
    /// level than the words before them are preceded by the level's indicator, read from the word
    /// files: `PREFIX.base` for the baseline, `PREFIX.NAME` for a level named in a template
    /// (`{exponent@super}`), `PREFIX.NAME.outer` for that level when further levels follow it
    /// ("Super Subscript").
    public var levelWords: String? = nil
    /// Declared preferences.
    public var preferences: [PreferenceDeclaration] = []
    /// Rules in file order.
    public var rules: [SpeechRule] = []
    /// Examples written outside any rule (at the start of a line): they test the file as a whole, for
    /// instance a locale's file that only inherits the shared structure (`inherit common/clearspeak`).
    public var examples: [RuleExample] = []

    /// Parses rule-file text. All errors are reported together, each with file:line:column and rule.
    /// `examples: false` skips the inline examples (they are only needed by tests), which makes
    /// loading at start-up faster.
    public init(parsing text: String, file: String, examples includeExamples: Bool = true) throws(RuleFileErrors) {
        self.file = file
        var errors: [RuleFileError] = []
        var current: RuleInProgress? = nil
        var names: Set<String> = []
        // Room for the rules up front, at one per 256 bytes (the rule files have one per 260 to 380):
        // the set of names grown as they came was rehashed, each time hashing the names again (0.8 M of
        // the 83.9 M instructions of `mathaloud speak 'x^2'` under callgrind, session 46).
        names.reserveCapacity(text.utf8.count / 256)
        rules.reserveCapacity(text.utf8.count / 256)

        func finish() {
            // The rule in progress is moved out (left nil), not copied and then released.
            guard let c = current.take() else { return }
            if !c.said {
                errors.append(RuleFileError(file: file, line: c.line, column: 1, rule: c.name, message: "rule has no 'say' line"))
            }
            rules.append(SpeechRule(name: c.name, kind: c.kind, conditions: c.conditions, template: c.template,
                                    examples: c.examples, file: file, line: c.line, conditionPositions: c.conditionPositions,
                                    templatePositions: c.templatePositions, early: c.early,
                                    alternatives: c.alternatives, alternativePositions: c.alternativePositions))
        }

        // Lines are split on bytes: rule files are read at every start-up.
        var text = text
        text.withUTF8 { (all: UnsafeBufferPointer<UInt8>) -> Void in
            for (lineNumber, line) in ByteLines(all) {
                let lineStart = line.lowerBound, end = line.upperBound
                var contentStart = lineStart
                while contentStart < end, all[contentStart] == 0x20 || all[contentStart] == 0x09 { contentStart += 1 }
                let indent = contentStart - lineStart
                if contentStart == end || all[contentStart] == 0x23 { continue }  // blank line or comment
                // The line's words are found on its bytes, and a `String` is made only of what a
                // keyword needs (rule files are read at every start-up; cold start, `BENCHMARKS.md`).
                // '#' starts a comment unless escaped as '\#' or inside an example's TeX.
                let isExample = startsWith(all, contentStart, end, "example")
                var bodyEnd = end
                if !isExample {
                    var previous: UInt8 = 0x20
                    for k in contentStart ..< end {
                        if all[k] == 0x23 && previous != 0x5C { bodyEnd = k; break }
                        previous = all[k]
                    }
                }
                var bodyStart = contentStart
                while bodyStart < bodyEnd, isSpaceByte(all[bodyStart]) { bodyStart += 1 }
                while bodyEnd > bodyStart, isSpaceByte(all[bodyEnd - 1]) { bodyEnd -= 1 }
                if bodyStart == bodyEnd { continue }
                let column = indent + 1
                // The rule an error is reported in: none for a line at the start (it finishes the rule
                // before it), else the rule in progress. Known before the line is read, so that the
                // rule can be moved out while its lines are read (see below).
                let ruleName = indent == 0 ? nil : current?.name
                func fail(_ message: String, column c: Int? = nil) {
                    errors.append(RuleFileError(file: file, line: lineNumber, column: c ?? column, rule: ruleName, message: message))
                }
                var keywordEnd = bodyStart
                while keywordEnd < bodyEnd, all[keywordEnd] != 0x20 && all[keywordEnd] != 0x09 { keywordEnd += 1 }
                var restStart = keywordEnd
                while restStart < bodyEnd, isSpaceByte(all[restStart]) { restStart += 1 }
                func keywordIs(_ word: StaticString) -> Bool {
                    keywordEnd - bodyStart == word.utf8CodeUnitCount && startsWith(all, bodyStart, keywordEnd, word)
                }
                let keywordIsExample = keywordIs("example")
                // Examples are skipped without reading them when they are not wanted.
                if keywordIsExample && !includeExamples {
                    if indent == 0 { finish() } else if current == nil { fail("an indented line must belong to a rule") }
                    continue
                }
                // The keyword is told on its bytes, and made a `String` only for a message: made and
                // compared as strings per line, it cost 0.5 M of the 92 M instructions of `mathaloud
                // speak 'x^2'` under callgrind (session 46).
                var keyword: String { String(decoding: all[bodyStart ..< keywordEnd], as: UTF8.self) }
                // The text after the keyword, made only where it is needed as a `String` (not for
                // `when` lines, whose conditions are read on the bytes).
                var rest: String { String(decoding: all[restStart ..< bodyEnd], as: UTF8.self) }
                if indent == 0 {
                    finish()
                    switch () {
                    case _ where keywordIs("style"): style = rest
                    case _ where keywordIs("locale"): locale = rest
                    case _ where keywordIs("inherit"):
                        let words = spaceSeparatedWords(all, restStart ..< bodyEnd).map { String(decoding: all[$0], as: UTF8.self) }
                        if words.count == 1 {
                            inherits.append(RuleInheritance(path: String(words[0])))
                            inheritLines.append(lineNumber)
                        } else if words.count == 3, words[1] == "without", words[2] == "preferences" {
                            inherits.append(RuleInheritance(path: String(words[0]), offersPreferences: false))
                            inheritLines.append(lineNumber)
                        } else {
                            fail("write 'inherit PATH' or 'inherit PATH without preferences', e.g. 'inherit en/clearspeak'")
                        }
                    case _ where keywordIs("words"): wordFiles.append(rest)
                    case _ where keywordIs("phrases"): phraseFiles.append(rest)
                    case _ where keywordIs("levels"):
                        if rest.isEmpty { fail("write 'levels PREFIX', e.g. 'levels ms.level'") } else { levelWords = rest }
                    case _ where keywordIs("preference"):
                        // The text made once; when it is printable ASCII (each byte a character), the
                        // ASCII delimiters are found on its bytes.
                        let rest = rest
                        let ascii = rest.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                        guard let colon = ascii ? rest.utf8.firstIndex(of: 0x3A) : rest.firstIndex(of: ":") else {
                            fail("write 'preference Name: Value1 Value2 …' (the first value is the default)")
                            continue
                        }
                        var namePart = String(rest[..<colon]).trimmingSpaces
                        var aliases: [String] = []
                        if let open = ascii ? namePart.utf8.firstIndex(of: 0x28) : namePart.firstIndex(of: "("), namePart.hasSuffix(")") {
                            aliases = namePart[namePart.index(after: open)..<namePart.index(before: namePart.endIndex)]
                                .split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
                            namePart = String(namePart[..<open]).trimmingSpaces
                        }
                        let valueText: Substring = rest[rest.index(after: colon)...]
                        let pieces: [Substring] = ascii
                            ? valueText.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x2C }).map { Substring($0) }
                            : valueText.split(whereSeparator: { (c: Character) -> Bool in c == " " || c == "," })
                        let values: [String] = pieces.map { String($0) }.filter { !$0.isEmpty }
                        if values.isEmpty { fail("preference \(namePart) has no values") }
                        preferences.append(PreferenceDeclaration(name: namePart, values: values, aliases: aliases))
                    case _ where keywordIs("rule"):
                        // rule NAME for KIND: `for` compared on the bytes (no other bytes are canonically
                        // equal to it), `String`s made of the name and kind only.
                        let words = spaceSeparatedWords(all, restStart ..< bodyEnd)
                        guard words.count == 3, words[1].count == 3, startsWith(all, words[1].lowerBound, words[1].upperBound, "for") else {
                            fail("write 'rule NAME for KIND', e.g. 'rule common-fraction for fraction'")
                            continue
                        }
                        let name = String(decoding: all[words[0]], as: UTF8.self)
                        if !names.insert(name).inserted { fail("rule '\(name)' is defined twice in this file") }
                        current = RuleInProgress(name: name, kind: String(decoding: all[words[2]], as: UTF8.self), line: lineNumber)
                    case _ where keywordIs("example"):
                        guard includeExamples else { continue }
                        do throws(RuleSyntaxError) { examples.append(try parseExample(rest, file: file, line: lineNumber)) } catch { fail(error.message) }
                    default:
                        fail("unknown line '\(keyword)'; expected style, locale, inherit, words, phrases, levels, preference, rule or example")
                    }
                    continue
                }
                guard current != nil else {
                    fail("an indented line must belong to a rule")
                    continue
                }
                let isWhen = keywordIs("when"), isEither = !isWhen && keywordIs("either")
                // The rule in progress is changed in place, one access of `current` per line: each
                // access (a variable the nested functions capture) was an exclusivity check, 0.8 M of
                // the 92 M instructions of `mathaloud speak 'x^2'` (callgrind, session 46). Moved out
                // and back instead, it was copied and destroyed per line (+0.3 M).
                func read(_ rule: inout RuleInProgress) {
                    switch () {
                    case _ where isWhen || isEither || keywordIs("or"):
                        if isEither && !rule.alternatives.isEmpty {
                            fail("a rule has one 'either' line, with 'or' lines after it (write another rule for another choice)")
                            return
                        }
                        if !isWhen && !isEither && rule.alternatives.isEmpty {
                            fail("an 'or' line follows an 'either' line: 'either CONDITIONS' then 'or CONDITIONS', one of which must hold")
                            return
                        }
                        if !isWhen {
                            // `either …` / `or …`: one of these sets must hold (``SpeechRule/alternatives``).
                            rule.alternatives.append([])
                            rule.alternativePositions.append([])
                        }
                        let parts = splitAnd(all, restStart ..< bodyEnd)
                        if parts.count == 1 && parts[0].isEmpty {
                            fail("write the conditions after '\(keyword)'")
                            return
                        }
                        // Room for the line's conditions at once (most rules have one `when` line): grown
                        // by appending, the arrays were reallocated 2,780 times (1.3 M of the 98.9 M
                        // instructions of `mathaloud speak 'x^2'` under callgrind, session 46).
                        if isWhen {
                            rule.conditions.reserveCapacity(rule.conditions.count + parts.count)
                            rule.conditionPositions.reserveCapacity(rule.conditionPositions.count + parts.count)
                        }
                        for part in parts {
                            // Columns count characters (UTF-8 sequences) before the condition.
                            let partColumn = column + characterCount(all, bodyStart, part.lowerBound)
                            do throws(RuleSyntaxError) {
                                let condition = try parseCondition(all, part)
                                let position = RulePosition(line: lineNumber, column: partColumn)
                                if isWhen {
                                    rule.conditions.append(condition)
                                    rule.conditionPositions.append(position)
                                } else {
                                    rule.alternatives[rule.alternatives.count - 1].append(condition)
                                    rule.alternativePositions[rule.alternativePositions.count - 1].append(position)
                                }
                            } catch {
                                fail(error.message, column: partColumn)
                            }
                        }
                    case _ where keywordIs("say"):
                        let restColumn = column + (restStart - bodyStart)  // `say` and spaces are ASCII
                        do throws(RuleSyntaxError) {
                            // The parts and their places made as the rule keeps them: a list of pairs mapped
                            // into two arrays and appended cost 1.3 M of the 98.9 M instructions of `mathaloud
                            // speak 'x^2'` (callgrind, session 46).
                            var parts: [TemplatePart] = [], positions: [RulePosition] = []
                            try parseTemplate(UnsafeBufferPointer(rebasing: all[restStart ..< bodyEnd]), parts: &parts,
                                              positions: &positions, line: lineNumber, column: restColumn)
                            if rule.template.isEmpty {
                                rule.template = parts
                                rule.templatePositions = positions
                            } else {
                                rule.template += parts
                                rule.templatePositions += positions
                            }
                            rule.said = true
                        } catch { fail(error.message, column: restColumn + (error.offset ?? 0)) }
                    case _ where keywordIsExample:
                        guard includeExamples else { return }
                        do throws(RuleSyntaxError) { rule.examples.append(try parseExample(rest, file: file, line: lineNumber)) } catch { fail(error.message) }
                    case _ where keywordIs("early"):
                        if restStart < bodyEnd { fail("'early' stands alone on its line") }
                        if rule.early { fail("'early' is written twice") }
                        rule.early = true
                    default:
                        fail("unknown rule line '\(keyword)'; expected when, either, or, say, example or early")
                    }
                }
                read(&current!)
            }
        }
        finish()
        if !errors.isEmpty { throw RuleFileErrors(errors: errors, partial: nil, partialRules: self) }
    }
}

struct RuleSyntaxError: Error {
    let message: String
    /// Where in the text parsed (characters from its start), when known.
    var offset: Int? = nil
}

/// Space, tab or CR (what ``StringProtocol/trimmingSpaces`` trims).
@inline(__always)
func isSpaceByte(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }

/// Whether `bytes[start ..< end]` starts with the ASCII `word`.
private func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard end - start >= n else { return false }
    let w = word.utf8Start
    for k in 0 ..< n where bytes[start + k] != w[k] { return false }
    return true
}

/// The characters (UTF-8 sequences: bytes that are not continuation bytes) in `bytes[start ..< end]`.
private func characterCount(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
    var n = 0
    for k in start ..< max(start, end) where bytes[k] & 0xC0 != 0x80 { n += 1 }
    return n
}

/// The byte ranges of the words of `bytes[range]` (runs of bytes other than space; rule files are
/// read at every start-up, so their lines are split on bytes).
private func spaceSeparatedWords(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
    // Counted first, so that the array is allocated once (it is made for every `rule` and `inherit`
    // line at start-up).
    var count = 0
    forEachWord(bytes, range) { _ in count += 1 }
    var words: [Range<Int>] = []
    words.reserveCapacity(count)
    forEachWord(bytes, range) { words.append($0) }
    return words
}

/// Calls `body` with each word of `bytes[range]` (a run of bytes other than space), in order: the one
/// scan of ``spaceSeparatedWords(_:_:)``, ``splitAnd(_:_:)``, ``parseCondition(_:_:)`` and the words of a
/// contraction's key (``Contractions``).
@inline(__always)
func forEachWord(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>) -> Void) {
    var i = range.lowerBound
    while i < range.upperBound {
        if bytes[i] == 0x20 { i += 1; continue }
        var end = i
        while end < range.upperBound, bytes[end] != 0x20 { end += 1 }
        body(i ..< end)
        i = end
    }
}

/// A rule being read. A struct, not a tuple: a tuple of its twelve fields was copied through the runtime's
/// type metadata when a rule was finished (`tuple_initializeWithCopy`, +2.4 M of the 106.5 M instructions of
/// `mathaloud speak 'x^2'` under callgrind, session 41).
private struct RuleInProgress {
    var name: String
    var kind: String
    var line: Int
    var conditions: [RuleCondition] = []
    var template: [TemplatePart] = []
    var examples: [RuleExample] = []
    var said = false
    var conditionPositions: [RulePosition] = []
    var templatePositions: [RulePosition] = []
    var early = false
    var alternatives: [[RuleCondition]] = []
    var alternativePositions: [[RulePosition]] = []
}

/// `bytes[from ..< to]` without the spaces, tabs and CRs around it (rule and phrase files).
func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Range<Int> {
    var a = from, b = to
    while a < b, isSpaceByte(bytes[a]) { a += 1 }
    while b > a, isSpaceByte(bytes[b - 1]) { b -= 1 }
    return a ..< b
}

/// Splits the condition text `bytes[range]` on the word `and` (``spaceSeparatedWords(_:_:)``): the
/// byte ranges between the `and`s, trimmed.
private func splitAnd(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
    // The words are found in place (``forEachWord(_:_:_:)``), without an array of them (one per
    // condition line at start-up).
    var parts: [Range<Int>] = []
    parts.reserveCapacity(4)
    var partStart = range.lowerBound
    forEachWord(bytes, range) { word in
        let i = word.lowerBound
        if word.count == 3 && bytes[i] == 0x61 && bytes[i + 1] == 0x6E && bytes[i + 2] == 0x64 {
            parts.append(trimmedRange(bytes, partStart, i))
            partStart = word.upperBound
        }
    }
    parts.append(trimmedRange(bytes, partStart, range.upperBound))
    return parts
}

/// `not? (pref NAME | parent | role | followed | first | PATH) (is KINDS | = V | != V | in A, B | < N | > N)?`
/// The condition text `bytes[range]` (valid UTF-8, cut at ASCII bytes).
/// Its words (runs of bytes other than space) are compared as bytes and a `String` is made only of
/// what the condition keeps: this runs for every condition of every rule file at start-up.
func parseCondition(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(RuleSyntaxError) -> RuleCondition {
    // The words' ranges on the stack (at most one word per two bytes, rounded up): an array of them
    // per condition cost 2.6 M of the 98.9 M instructions of `mathaloud speak 'x^2'` under callgrind
    // (session 46).
    try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: range.count / 2 + 1) {
        (words: UnsafeMutableBufferPointer<Range<Int>>) throws(RuleSyntaxError) -> RuleCondition in
        var n = 0
        forEachWord(bytes, range) { words[n] = $0; n += 1 }
        return try parseCondition(bytes, range, words: UnsafeBufferPointer(rebasing: words[..<n]))
    }
}

/// The words of a condition, as ``parseCondition(_:_:)`` finds them.
private typealias ConditionWords = Slice<UnsafeBufferPointer<Range<Int>>>

/// ``parseCondition(_:_:)`` with the condition's words (``spaceSeparatedWords(_:_:)``) found.
private func parseCondition(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                            words all: UnsafeBufferPointer<Range<Int>>) throws(RuleSyntaxError) -> RuleCondition {
    func string(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
    func isWord(_ word: Range<Int>?, _ literal: StaticString) -> Bool {
        guard let word else { return false }
        return word.count == literal.utf8CodeUnitCount && startsWith(bytes, word.lowerBound, word.upperBound, literal)
    }
    var words = all[...]
    var negated = false
    if isWord(words.first, "not") { negated = true; words.removeFirst() }
    guard let subjectRange = words.first else { throw RuleSyntaxError(message: "empty condition") }
    words.removeFirst()

    /// The text from the first of `words` to the end of the condition (spacing kept).
    func after(_ words: ConditionWords) -> Range<Int> {
        guard let first = words.first else { return range.upperBound ..< range.upperBound }
        return first.lowerBound ..< range.upperBound
    }

    func valueTest(_ words: ConditionWords) throws(RuleSyntaxError) -> (ValueTest, Bool) {
        guard let opRange = words.first else { return (.present, false) }
        let restRange = after(words.dropFirst())
        if isWord(opRange, "=") || isWord(opRange, "in") || isWord(opRange, "!=") {
            let values = splitValues(bytes, restRange)
            guard !values.isEmpty else { throw RuleSyntaxError(message: "'\(string(opRange))' needs a value") }
            return (.oneOf(values), isWord(opRange, "!="))
        }
        if isWord(opRange, "<") || isWord(opRange, ">") {
            let rest = string(restRange)
            guard let n = Double(rest.trimmingSpaces) else { throw RuleSyntaxError(message: "'\(string(opRange))' needs a number, not '\(rest)'") }
            return (isWord(opRange, "<") ? .less(n) : .greater(n), false)
        }
        throw RuleSyntaxError(message: "expected =, !=, in, <, > or 'is' after '\(string(subjectRange))', found '\(string(opRange))'")
    }

    func kinds(_ words: ConditionWords) -> [String] { splitValues(bytes, after(words)) }

    /// `is KINDS` or `is not KINDS` after a subject: the kinds and whether the condition is negated.
    func kindsAfterIs(_ words: ConditionWords) -> ([String], Bool) {
        var rest = words.dropFirst()
        var neg = negated
        if isWord(rest.first, "not") { neg.toggle(); rest.removeFirst() }
        return (kinds(rest), neg)
    }

    if isWord(subjectRange, "pref") {
        guard let name = words.first.map(string) else { throw RuleSyntaxError(message: "'pref' needs a preference name") }
        let (test, flip) = try valueTest(words.dropFirst())
        return .preference(name: name, test: test, negated: negated != flip)
    }
    if isWord(subjectRange, "followed") {
        guard words.isEmpty else { throw RuleSyntaxError(message: "'followed' takes nothing after it, found '\(string(after(words)))'") }
        return .followed(negated: negated)
    }
    if isWord(subjectRange, "within") {
        guard !words.isEmpty else { throw RuleSyntaxError(message: "write 'within KIND'") }
        if let through = words.firstIndex(where: { isWord($0, "through") }) {
            let targets = splitValues(bytes, words[words.startIndex].lowerBound ..< words[through].lowerBound)
            let passed = kinds(words[words.index(after: through)...])
            guard !targets.isEmpty, !passed.isEmpty else {
                throw RuleSyntaxError(message: "write 'within KIND through KIND, KIND…'")
            }
            return .withinThrough(kinds: targets, through: passed, negated: negated)
        }
        return .within(kinds: kinds(words), negated: negated)
    }
    // `first` alone is the node's place; followed by a test (`first is identifier`, `first = x`) it names
    // the first child, as in a path (`last.content`), and is read as one below.
    if isWord(subjectRange, "first"), words.isEmpty { return .first(negated: negated) }
    if isWord(subjectRange, "parent") {
        guard isWord(words.first, "is") else { throw RuleSyntaxError(message: "write 'parent is KIND'") }
        let (kinds, neg) = kindsAfterIs(words)
        return .parentKind(kinds: kinds, negated: neg)
    }
    if isWord(subjectRange, "role") {
        guard isWord(words.first, "is") || isWord(words.first, "=") || isWord(words.first, "in") else {
            throw RuleSyntaxError(message: "write 'role is ROLE'")
        }
        let (roles, neg) = kindsAfterIs(words)
        return .role(roles: roles, negated: neg)
    }
    // A property, or a path of roles to one: the subject's dot-separated names (empty ones dropped).
    var path: [String] = []
    // Allocated once (a path grown by appending was reallocated per name; session 46).
    path.reserveCapacity(1 + subjectRange.reduce(0) { bytes[$1] == 0x2E ? $0 + 1 : $0 })
    var nameStart = subjectRange.lowerBound
    for k in subjectRange.lowerBound ... subjectRange.upperBound where k == subjectRange.upperBound || bytes[k] == 0x2E {
        if k > nameStart { path.append(string(nameStart ..< k)) }
        nameStart = k + 1
    }
    // A subject that starts or ends with the character "." (a byte '.' that no combining or
    // prepended scalar joins into another character: the `String` decides, as it rarely needs to).
    let startsWithDot = bytes[subjectRange.lowerBound] == 0x2E && string(subjectRange).hasPrefix(".")
    let endsWithDot = bytes[subjectRange.upperBound - 1] == 0x2E && string(subjectRange).hasSuffix(".")
    guard !path.isEmpty, !startsWithDot, !endsWithDot else {
        throw RuleSyntaxError(message: "'\(string(subjectRange))' is not a property or a path of roles such as numerator.simple")
    }
    if isWord(words.first, "is") {
        guard words.count > 1 + (isWord(words.dropFirst().first, "not") ? 1 : 0) else { throw RuleSyntaxError(message: "'is' needs a kind") }
        let (kinds, neg) = kindsAfterIs(words)
        return .kind(path: path, kinds: kinds, negated: neg)
    }
    let (test, flip) = try valueTest(words)
    let name = path.removeLast()
    return .property(path: path, name: name, test: test, negated: negated != flip)
}

/// The comma-separated values of `bytes[range]`, trimmed, without empty ones (with a backslash,
/// ``splitEscapedValues(_:_:)``).
private func splitValues(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [String] {
    // The commas counted first, so that the array is allocated once: grown by appending, it was
    // reallocated 2,489 times (0.8 M of the 98.9 M instructions of `mathaloud speak 'x^2'` under
    // callgrind, session 46).
    var commas = 0
    for k in range {
        if bytes[k] == 0x5C { return splitEscapedValues(bytes, range) }
        if bytes[k] == 0x2C { commas += 1 }
    }
    var values: [String] = []
    values.reserveCapacity(commas + 1)
    var start = range.lowerBound
    for k in range.lowerBound ... range.upperBound where k == range.upperBound || bytes[k] == 0x2C {
        let value = trimmedRange(bytes, start, k)
        if !value.isEmpty { values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)) }
        start = k + 1
    }
    return values
}

/// Values separated by commas where the text has a backslash: `\,` is a literal comma and the
/// escapes of word-file keys apply (`\u{2062}`, `\#`, `\|`, `\s`). Text without one is split by
/// ``splitValues(_:_:)``, which calls this otherwise. On the bytes, as the scalars were read before
/// (a backslash keeps the whole UTF-8 sequence after it): 16 k instructions a call on a `String`'s
/// scalars, 102 calls (1.6 M of the 98.9 M of `mathaloud speak 'x^2'`, session 46).
private func splitEscapedValues(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [String] {
    var values: [String] = []
    var current: [UInt8] = []
    current.reserveCapacity(range.count + 1)
    func flush() {
        current.withUnsafeBufferPointer { c in
            let value = trimmedRange(c, 0, c.count)
            guard !value.isEmpty else { return }
            let text = String(decoding: UnsafeBufferPointer(rebasing: c[value]), as: UTF8.self)
            values.append(c[value].contains(0x5C) ? (WordTable.unescapeKey(text) ?? text) : text)
        }
        current.removeAll(keepingCapacity: true)
    }
    var k = range.lowerBound
    while k < range.upperBound {
        let b = bytes[k]
        k += 1
        if b == 0x5C {
            current.append(0x5C)
            // The escaped scalar: its lead byte and continuation bytes.
            guard k < range.upperBound else { break }
            current.append(bytes[k])
            k += 1
            while k < range.upperBound, bytes[k] & 0xC0 == 0x80 { current.append(bytes[k]); k += 1 }
        } else if b == 0x2C {
            flush()
        } else {
            current.append(b)
        }
    }
    flush()
    return values
}

/// Words, `,` `;` `.` pauses, and `{…}` references, appended to `parts`, each with where it starts
/// appended to `positions` (on `line`, at `column` plus the characters from the start of `bytes`).
/// Works on UTF-8 bytes (rule files are read at every start-up); every byte the syntax looks at is
/// ASCII.
func parseTemplate(_ bytes: UnsafeBufferPointer<UInt8>, parts: inout [TemplatePart], positions: inout [RulePosition],
                   line: Int, column: Int) throws(RuleSyntaxError) {
    parts.reserveCapacity(4)
    positions.reserveCapacity(4)
    var word: [UInt8] = []
    // Room for the whole text at once: grown by appending, 1,056 reallocations (0.3 M instructions,
    // session 46).
    word.reserveCapacity(bytes.count)
    var wordStart = 0
    /// Characters before byte `b` (continuation bytes are not characters' starts), counted on from
    /// the last byte asked about when `b` is past it (parts are added in order).
    var countedBytes = 0, countedCharacters = 0
    func characters(before b: Int) -> Int {
        let b = min(b, bytes.count)
        if b < countedBytes { countedBytes = 0; countedCharacters = 0 }
        for k in countedBytes ..< b where bytes[k] & 0xC0 != 0x80 { countedCharacters += 1 }
        countedBytes = b
        return countedCharacters
    }
    func add(_ part: TemplatePart, at byte: Int) {
        parts.append(part)
        positions.append(RulePosition(line: line, column: column + characters(before: byte)))
    }
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
    func flushWord() {
        var a = 0, b = word.count
        while a < b, isSpace(word[a]) { a += 1 }
        while b > a, isSpace(word[b - 1]) { b -= 1 }
        if a < b {
            let w = String(decoding: word[a..<b], as: UTF8.self)
            if case .words(let previous) = parts.last {
                parts[parts.count - 1] = .words(previous + " " + w)
            } else {
                add(.words(w), at: wordStart + a)
            }
        }
        word.removeAll(keepingCapacity: true)
    }
    var i = 0
    while i < bytes.count {
        let c = bytes[i]
        if word.isEmpty { wordStart = i }
        i += 1
        switch c {
        case 0x2D where word.isEmpty && i < bytes.count && bytes[i] == 0x7B
            && parts.last.map({ if case .words = $0 { return false } else { return true } }) == true:
            add(.joiner("-"), at: i - 1)
        case 0x7B:
            // A word written right before a reference is glued to it: arc{…} → "arctangent".
            let glued = !word.isEmpty && word.last != 0x20
            flushWord()
            if glued { add(.joiner(""), at: i - 1) }
            guard let close = bytes[i...].firstIndex(of: 0x7D) else {
                throw RuleSyntaxError(message: "'{' is not closed", offset: characters(before: i - 1))
            }
            do throws(RuleSyntaxError) {
                if let simple = simpleReference(bytes, trimmedRange(bytes, i, close)) {
                    add(simple, at: i - 1)
                } else {
                    add(try parseReference(String(decoding: bytes[i..<close], as: UTF8.self).trimmingSpaces), at: i - 1)
                }
            } catch {
                throw RuleSyntaxError(message: error.message, offset: characters(before: i - 1))
            }
            i = close + 1
            // A word written right after a reference is glued to it: {=position}행 → "1행".
            if i < bytes.count, !isSpace(bytes[i]), bytes[i] != 0x7B, bytes[i] != 0x2C, bytes[i] != 0x3B,
               !(bytes[i] == 0x2D && i + 1 < bytes.count && bytes[i + 1] == 0x7B) {
                add(.joiner(""), at: i)
            }
        case 0x2C, 0x3B:
            flushWord()
            add(.pause(c == 0x2C ? .short : .medium), at: i - 1)
        case 0x5C:
            // An escaped character: the whole UTF-8 sequence after the backslash.
            if i < bytes.count {
                word.append(bytes[i])
                i += 1
                while i < bytes.count, bytes[i] & 0xC0 == 0x80 { word.append(bytes[i]); i += 1 }
            }
        default:
            word.append(c)
        }
    }
    flushWord()
}

/// The common reference, a bare name of ASCII letters, digits and `-` (`{numerator}`, `{children}`), at
/// `bytes[r]` (trimmed): what ``parseReference(_:)`` gives it, without the general parse and without
/// making a `String` of anything but a role (rule files are read at every start-up: a trimmed
/// `String` of every reference made and compared cost 0.9 M of the 92 M instructions of `mathaloud
/// speak 'x^2'` under callgrind, session 46). Nil for any other reference.
private func simpleReference(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> TemplatePart? {
    guard !r.isEmpty, r.allSatisfy({ isASCIILetterOrDigit(bytes[$0]) || bytes[$0] == 0x2D }) else { return nil }
    func `is`(_ word: StaticString) -> Bool {
        r.count == word.utf8CodeUnitCount && startsWith(bytes, r.lowerBound, r.upperBound, word)
    }
    if `is`("children") { return .children }
    if `is`("inherited") { return .inherited }
    if `is`("level") { return .levelMark }
    if `is`("text") { return .text(format: nil) }
    return .child(role: String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self), format: nil)
}

private func parseReference(_ inner: String) throws(RuleSyntaxError) -> TemplatePart {
    guard !inner.isEmpty else { throw RuleSyntaxError(message: "empty {}") }
    // A bare name: ``simpleReference(_:_:)`` (which the template parser asks first).
    if inner.utf8.allSatisfy({ isASCIILetterOrDigit($0) || $0 == 0x2D }) {
        switch inner {
        case "children": return .children
        case "inherited": return .inherited
        case "level": return .levelMark
        case "text": return .text(format: nil)
        default: return .child(role: inner, format: nil)
        }
    }
    // In a reference of printable ASCII (each byte a character), the ASCII characters the syntax
    // looks for are found on the bytes, and the indices found are characters' indices.
    let isASCII = inner.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    if isASCII ? inner.utf8.contains(where: { $0 == 0x20 || $0 == 0x7B || $0 == 0x09 })
               : inner.contains(where: { $0 == " " || $0 == "{" || $0 == "\t" }) {
        throw RuleSyntaxError(message: "'{\(inner)}' is not a reference; write {role}, {role:format}, {=property}, {@key} or {text}")
    }
    if inner.hasPrefix("@") {
        let key = inner.dropFirst()
        // Words for a count: `{@ms.start-root[root-depth]}`.
        if let open = key.firstIndex(of: "[") {
            let property = key[key.index(after: open)...].dropLast()
            guard key.hasSuffix("]"), !property.isEmpty, open > key.startIndex else {
                throw RuleSyntaxError(message: "write {@KEY[property]}, e.g. {@ms.start-root[root-depth]}")
            }
            return .countedLookup(key: String(key[..<open]), property: String(property))
        }
        let (lookupKey, variants) = try TemplateFormat.lookup(String(key))
        return .lookup(key: lookupKey, variants: variants)
    }
    // A child at a script level: `{exponent@super}` (a role, `@`, a level name; no format).
    if let at = isASCII ? inner.utf8.firstIndex(of: 0x40) : inner.firstIndex(of: "@"),
       !(isASCII ? inner.utf8.contains(0x3A) : inner.contains(":")), !inner.hasPrefix("="), inner.first != "@" {
        let role = inner[..<at], level = inner[inner.index(after: at)...]
        if role != "text", level.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) {
            guard !role.isEmpty, !level.isEmpty, !level.contains("."), !level.contains("@"), role != "children" else {
                throw RuleSyntaxError(message: "write {ROLE@LEVEL}, e.g. {exponent@super}")
            }
            return .leveled(role: String(role), level: String(level))
        }
    }
    var name = inner
    var format: TemplateFormat? = nil
    if let split = isASCII ? inner.utf8.firstIndex(where: { $0 == 0x3A || $0 == 0x40 }) : inner.firstIndex(where: { $0 == ":" || $0 == "@" }) {
        name = String(inner[..<split]).trimmingSpaces
        let rest = inner[(inner[split] == ":" ? inner.index(after: split) : split)...]
        format = try TemplateFormat(parsing: String(rest))
    }
    if name.hasPrefix("=") { return .property(name: String(name.dropFirst()), format: format) }
    if name == "children" {
        guard format == nil else { throw RuleSyntaxError(message: "{children} takes no format") }
        return .children
    }
    if name == "inherited" { return .inherited }
    if name == "level" {
        guard let format else { return .levelMark }
        guard format.name == "silent", format.variants.isEmpty else { throw RuleSyntaxError(message: "write {level} or {level:silent}") }
        return .levelSilent
    }
    if name == "text" { return .text(format: format) }
    if name == "." { return .pause(.long) }
    if let format, format.name == nil {
        throw RuleSyntaxError(message: "a variant of a child needs a format that gives words, e.g. {\(name):ordinal@\(format.variants[0])}")
    }
    return .child(role: name, format: format)
}

/// `example [Pref=Value, …] TEX => SPEECH`
private func parseExample(_ text: String, file: String, line: Int) throws(RuleSyntaxError) -> RuleExample {
    var rest = Substring(text)
    var preferences: [String: String] = [:]
    // `[Name=Value, …]` sets preferences; a `[` that does not open such a list is TeX (`[SO_4]^{2-}`).
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]"),
       rest[rest.index(after: rest.startIndex)..<close].split(separator: ",").allSatisfy({ pair in
           let kv = pair.split(separator: "=", maxSplits: 1)
           return kv.count == 2 && kv[0].trimmingSpaces.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } && !kv[0].trimmingSpaces.isEmpty
       }) {
        for pair in rest[rest.index(after: rest.startIndex)..<close].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard kv.count == 2 else { throw RuleSyntaxError(message: "write example preferences as [Name=Value, …]") }
            preferences[kv[0]] = kv[1]
        }
        rest = rest[rest.index(after: close)...]
    }
    var arrowIndex: Substring.Index? = nil
    var i = rest.startIndex
    while i < rest.endIndex {
        let next = rest.index(after: i)
        if rest[i] == "=", next < rest.endIndex, rest[next] == ">" { arrowIndex = i; break }
        i = next
    }
    guard let arrow = arrowIndex else { throw RuleSyntaxError(message: "write 'example TEX => speech'") }
    let tex = rest[..<arrow].trimmingSpaces
    let speech = rest[rest.index(arrow, offsetBy: 2)...].trimmingSpaces
    guard !tex.isEmpty else { throw RuleSyntaxError(message: "example has no TeX") }
    // `Pauses=Exact` asks the test to compare the pauses too; it is no preference of the style.
    let pauses = preferences.removeValue(forKey: "Pauses")
    guard pauses == nil || pauses == "Exact" else { throw RuleSyntaxError(message: "write [Pauses=Exact] to compare the pauses of an example") }
    var example = RuleExample(tex: tex, preferences: preferences, speech: speech, file: file, line: line)
    example.exactPauses = pauses != nil
    return example
}
