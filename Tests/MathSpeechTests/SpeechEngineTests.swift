import Testing
import MathSyntax
import MathSemantics
@testable import MathSpeech

/// The engine on hand-built trees: names and roles outside the semantic vocabulary, stored value
/// forms, the root's role, pseudo-properties (what the corpus runs of `MathAloudTests` never reach).
@Suite struct SpeechEngineTests {
    static let rules = #"""
    style Test
    locale xx

    rule flagged for identifier
      when my-flag
      say flagged {text}
    rule by-role for identifier
      when role is my-role
      say in my role {text}
    rule named-y for identifier
      when text = y
      say the letter y
    rule before-y for number
      when next.text = y
      say before y {text:raw}
    rule grandchild for identifier
      when parent.parent is fraction and within fraction
      say grandchild {text}
    rule through-a-path for fraction
      say over {numerator.base}
    rule role-property for number
      when role = my-role
      say numbered {text:raw}
    rule twelve for number
      when value = 12
      say twelve
    rule small for number
      when value < 10
      say small {text:raw}
    rule second-item for number
      when position = 2 and role is item
      say second {text:raw}
    rule binary for operator
      when class = BIN and not other
      say binary
    rule pair for row
      when count = 2 and not first
      say pair of {children}
    """#

    static func engine() throws -> SpeechEngine {
        let style = SpeechStyle(files: [try RuleFile(parsing: rules, file: "xx/test.rules")], words: WordTable())
        let symbols = try WordTable(parsing: "x  ex\n+  plus\n", file: "xx/symbols.txt")
        let locale = try LocaleWords(tag: "xx", settings: WordTable(), symbols: symbols, functions: WordTable(), units: WordTable(),
                                 numbers: WordTable())
        return SpeechEngine(style: style, lexicon: Lexicon(chain: [locale]))
    }

    static func text(_ output: SpeechOutput) -> String { output.description.plainText }

    @Test func namesAndRolesOutsideTheVocabulary() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.row, children: [
            SemanticNode(.identifier, text: "x", role: .item, properties: ["my-flag": "true"]),
            SemanticNode(.identifier, text: "z", role: "my-role"),
            SemanticNode(.number, text: "3", role: "my-role"),
            SemanticNode(.number, text: "4", role: .item),
        ])
        let expected = "flagged ex in my role z numbered 3 second 4"
        #expect(Self.text(engine.speak(root)) == expected)
        #expect(Self.text(engine.speak(SemanticTree(root))) == expected)
        let traced = engine.speak(root, trace: true)
        #expect(Self.text(traced) == expected)
        #expect(traced.trace.map(\.role) == ["", "item", "my-role", "my-role", "item"])
        #expect(traced.trace[1].properties == ["my-flag": "true"])
        #expect(traced.trace[1].rule == "flagged" && traced.trace[1].conditions == ["my-flag"])
        #expect(traced.trace.map(\.speech) == [expected, "flagged ex", "in my role z", "numbered 3", "second 4"])
    }

    /// A property named `text` is tested instead of the node's text (the candidate rules are still
    /// chosen by the node's text).
    @Test func aPropertyNamedText() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.row, children: [
            SemanticNode(.identifier, text: "y", role: .item),
            SemanticNode(.identifier, text: "y", role: .item, properties: ["text": "z"]),
            SemanticNode(.identifier, text: "x", role: .item, properties: ["text": "y"]),
        ])
        #expect(Self.text(engine.speak(root)) == "the letter y y ex")
    }

    /// `text` compares exactly, on the node and through a path: `text = y` does not hold for `Y`
    /// (other values ignore ASCII case).
    @Test func textComparesExactly() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.row, children: [
            SemanticNode(.number, text: "5", role: .item), SemanticNode(.identifier, text: "y", role: .item),
            SemanticNode(.number, text: "6", role: .item), SemanticNode(.identifier, text: "Y", role: .item),
        ])
        #expect(Self.text(engine.speak(root)) == "before y 5 the letter y 6 Y")
    }

    /// A node reached through a template path (`{numerator.base}`) has the nodes on the way as its
    /// ancestors, as when it is reached child by child.
    @Test func aPathsNodesAreAncestors() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.fraction, children: [
            SemanticNode(.power, children: [SemanticNode(.identifier, text: "z", role: .base),
                                            SemanticNode(.number, text: "2", role: .exponent)], role: .numerator),
            SemanticNode(.number, text: "3", role: .denominator),
        ])
        #expect(Self.text(engine.speak(SemanticTree(root))) == "over grandchild z")
        let traced = engine.speak(SemanticTree(root), trace: true)
        #expect(traced.trace.last?.rule == "grandchild")
    }

    /// Values are tested as their strings whatever form the tree stores them in: integers, atoms
    /// (case-insensitively), flags and strings.
    @Test func storedValueForms() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.row, children: [
            SemanticNode(.number, text: "12", properties: ["value": "12"]),
            SemanticNode(.number, text: "7", properties: ["value": "007"]),
            SemanticNode(.number, text: "13", properties: ["value": "13"]),
            SemanticNode(.operator, text: "+", properties: ["class": "bin"]),
            SemanticNode(.operator, text: "+", properties: ["class": "bin", "other": "false"]),
            SemanticNode(.operator, text: "+", properties: ["class": "bin", "other": "yes"]),
        ])
        let tree = SemanticTree(root)
        #expect(tree.property(tree.child(tree.rootID, at: 0).node, .value)?.form == .integer)
        #expect(tree.property(tree.child(tree.rootID, at: 1).node, .value)?.form == .string)
        #expect(tree.property(tree.child(tree.rootID, at: 3).node, .class)?.form == .atom)
        #expect(Self.text(engine.speak(tree)) == "twelve small 7 13 binary binary plus")
    }

    /// `speak(_:)` of a node keeps the root's role; a tree's root has none.
    @Test func theRootsRole() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.identifier, text: "z", role: "my-role")
        #expect(Self.text(engine.speak(root)) == "in my role z")
        #expect(Self.text(engine.speak(SemanticTree(root))) == "z")
        let pair = SemanticNode(.row, children: [SemanticNode(.number, text: "1", role: .item), SemanticNode(.number, text: "2", role: .item)],
                                role: .item)
        // The root is `first` (index 0), so the pair rule does not apply to it.
        #expect(Self.text(engine.speak(pair)) == "1 second 2")
    }

    /// A word written right after a reference, with no space, is glued to it (Korean "1행"); a space
    /// keeps it a word of its own, and `}-{` still joins with a hyphen.
    @Test func wordGluedAfterAReference() throws {
        let rules = "style T\nlocale xx\nrule row for number\n  say {text:raw}행 then {text:raw} 행, {text:raw}-{text:raw}\n"
        let style = SpeechStyle(files: [try RuleFile(parsing: rules, file: "xx/t.rules")], words: WordTable())
        let locale = try LocaleWords(tag: "xx", settings: WordTable(), symbols: WordTable(), functions: WordTable(), units: WordTable(),
                                     numbers: WordTable())
        let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [locale]))
        #expect(Self.text(engine.speak(SemanticNode(.number, text: "2"))) == "2행 then 2 행, 2-2")
    }

    /// A pseudo-property (`text`, `kind`, `role`, `count`, `script-path`, `position`) said as
    /// `{=name}` without a format, in a tree that holds no property of that name: its words are the
    /// locale's entry `name.value` when there is one, else the value as written. The name comes from
    /// the rule table (the tree has no number for it: reading it from the tree indexed past its
    /// table, which only debug builds caught).
    @Test func pseudoPropertiesSaidByName() throws {
        let rules = "style T\nlocale xx\nrule id for identifier\n  say {=text} {=kind} {=role} {=count} {=script-path} {=position}\n"
        let style = SpeechStyle(files: [try RuleFile(parsing: rules, file: "xx/t.rules")], words: WordTable())
        let symbols = try WordTable(parsing: "text.q  the letter queue\n", file: "xx/symbols.txt")
        let locale = try LocaleWords(tag: "xx", settings: WordTable(), symbols: symbols, functions: WordTable(), units: WordTable(),
                                     numbers: WordTable())
        let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [locale]))
        let row = SemanticNode(.row, children: [SemanticNode(.identifier, text: "q", role: .item),
                                                SemanticNode(.identifier, text: "w", role: .item)])
        #expect(Self.text(engine.speak(row)) == "the letter queue identifier item 0 1 w identifier item 0 2")
        #expect(Self.text(engine.speak(SemanticTree(row))) == "the letter queue identifier item 0 1 w identifier item 0 2")
    }

    /// `{first}` and `{last}`: the first and last child whatever their roles (a relation's sides).
    @Test func firstAndLastChild() throws {
        let rules = "style T\nlocale xx\nrule sides for row\n  say {last} before {first}\n"
        let style = SpeechStyle(files: [try RuleFile(parsing: rules, file: "xx/t.rules")], words: WordTable())
        let locale = try LocaleWords(tag: "xx", settings: WordTable(), symbols: WordTable(), functions: WordTable(), units: WordTable(),
                                     numbers: WordTable())
        let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [locale]))
        let row = SemanticNode(.row, children: [SemanticNode(.number, text: "1", role: .item), SemanticNode(.operator, text: "<", role: .operator),
                                                SemanticNode(.number, text: "2", role: .item)])
        #expect(Self.text(engine.speak(row)) == "2 before 1")
    }

    /// A character without words is read by its name and reported once.
    @Test func missingWords() throws {
        let engine = try Self.engine()
        let root = SemanticNode(.row, children: [SemanticNode(.operator, text: "−", range: SourceRange(0, 3)),
                                                 SemanticNode(.operator, text: "−", range: SourceRange(4, 7))])
        let output = engine.speak(root)
        #expect(Self.text(output) == "minus sign minus sign")
        #expect(output.diagnostics.map(\.id) == ["speech.missing-word"])
        #expect(output.diagnostics.first?.range == SourceRange(0, 3))
    }
}

/// Word changes where parts of the speech meet (`contractions.txt`): exact pairs, any word, words
/// starting with an elision initial; never across a pause; a locale's entry replaces its parent's.
@Suite struct ContractionTests {
    static func locale(_ tag: String, contractions: String, settings: String = "") throws -> LocaleWords {
        try LocaleWords(tag: tag, settings: try WordTable(parsing: settings, file: "\(tag)/locale.txt"), symbols: WordTable(),
                    functions: WordTable(), units: WordTable(), numbers: WordTable(),
                    contractions: try WordTable(parsing: contractions, file: "\(tag)/contractions.txt"))
    }

    static func apply(_ c: Contractions, _ items: [SpeechDescription.Item]) -> String {
        var items = items
        c.apply(to: &items)
        return SpeechDescription(items: items).plainText
    }

    /// The speech builder's screen (``Contractions/Screen``) lets the engine skip
    /// ``Contractions/apply(to:)`` only when it would change nothing: words appended, joined, paused
    /// and removed at random, as a run does, for an exact pair, patterns (`*V`, with the exact pair
    /// before them) and words that are not ASCII.
    @Test func screenNeverHidesAPair() throws {
        let sets = [("en", "the\\sthe  the\n", ""),
                    ("fr", "le\\s*V  l'*\nde\\sle  du\nde\\sa  de a\nà\\sle  au\n", "elision-initials  aeiouhé\n"),
                    ("de", "zu\\sdie  zu den\nder\\sdie  der\n", ""),
                    ("de", "von\\sdie\\s*en  von den *\nvon\\sdie  von der\nvon\\sder\\sx  vom x\n", "")]
        let pool = ["the", "the log", "raised to the", "x", "le", "intégrale", "de", "le x", "de le", "a", "é", "à", "zu",
                    "die", "der die", "to the the end", "K", "théta", " ", "e", "la", "xthe", "thex", "von", "die Zahlen", "Menge",
                    "von die", "der x", "reellen Zahlen"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for (tag, table, settings) in sets {
            let c = Contractions(chain: [try Self.locale(tag, contractions: table, settings: settings)])
            #expect(c.screens)
            var skipped = 0, applied = 0
            for _ in 0 ..< 3000 {
                var out = SpeechBuilder(capacity: 4, screen: c.screen, screened: c.screens)
                for _ in 0 ... next(6) {
                    switch next(8) {
                    case 0: out.append(pause: .short)
                    case 1: out.join(next(2) == 0 ? "-" : " ", words: pool[next(pool.count)], range: nil)
                    case 2: if !out.items.isEmpty { out.removeItems(from: next(out.items.count)) }
                    default: out.append(words: pool[next(pool.count)], range: nil, prosody: nil)
                    }
                }
                SpeechDescription.removeTrailingPauses(&out.items)
                guard !out.mayContract else {
                    applied += 1
                    continue
                }
                skipped += 1
                var items = out.items
                c.apply(to: &items)
                #expect(items == out.items, "\(tag): \(SpeechDescription(items: out.items).plainText)")
            }
            #expect(skipped > 0 && applied > 0)
        }
    }

    @Test func pairsMeetingAtABoundary() throws {
        let en = Contractions(chain: [try Self.locale("en", contractions: "the\\sthe  the\n")])
        #expect(Self.apply(en, [.words("raised to the", range: nil, prosody: nil), .words("the log of x", range: nil, prosody: nil)])
                == "raised to the log of x")
        // Inside one part too, but not across a pause.
        #expect(Self.apply(en, [.words("raised to the the log", range: nil, prosody: nil)]) == "raised to the log")
        #expect(Self.apply(en, [.words("to the", range: nil, prosody: nil), .pause(.short), .words("the x", range: nil, prosody: nil)])
                == "to the, the x")
    }

    /// A key of three words: the entry applies only when the third word follows in the second word's
    /// part (a word, or `*` and the letters it ends in), and its words replace the three (`*`: the third);
    /// such a key is tried before the pair's key of two words, whatever the file order.
    @Test func thirdWordDecidesThePair() throws {
        let de = try Self.locale("de", contractions: "von\\sdie  von der\nvon\\sdie\\s*en  von den *\nzu\\sdie\\sMenge  zur Menge\n"
                                 + "до\\sминус\\sбесконечность  до минус бесконечности\n")
        let c = Contractions(chain: [de])
        func words(_ w: String) -> SpeechDescription.Item { .words(w, range: nil, prosody: nil) }
        #expect(Self.apply(c, [words("Element von"), words("die reellen Zahlen")]) == "Element von den reellen Zahlen")
        #expect(Self.apply(c, [words("Element von"), words("die Menge")]) == "Element von der Menge")
        #expect(Self.apply(c, [words("Element von die Zahlen")]) == "Element von den Zahlen")
        #expect(Self.apply(c, [words("Element von"), words("die Zahlen"), words("x")]) == "Element von den Zahlen x")
        // A third word in the next part (not across a pause); none: the key of two words applies.
        #expect(Self.apply(c, [words("von"), words("die"), words("Zahlen sind")]) == "von den Zahlen sind")
        #expect(Self.apply(c, [words("von"), words("die"), .pause(.short), words("Zahlen")]) == "von der, Zahlen")
        #expect(Self.apply(c, [words("von die")]) == "von der")
        // An exact third word; without it, no entry of the first word applies.
        #expect(Self.apply(c, [words("zu"), words("die Menge 1")]) == "zur Menge 1")
        #expect(Self.apply(c, [words("zu"), words("die Norm")]) == "zu die Norm")
        #expect(Self.apply(c, [words("от 0 до"), words("минус бесконечность")]) == "от 0 до минус бесконечности")
        #expect(Self.apply(c, [words("до минус бесконечность x")]) == "до минус бесконечности x")
    }

    /// `*@NAME`: the word `*` stands for in its form NAME from `forms.txt` (the longest key that starts
    /// there, so an adjective declines with its noun, across two parts too); an entry whose form a word
    /// lacks does not apply, so a letter after the preposition stays as it is; a child locale's form
    /// replaces its parent's.
    @Test func formsAskedForByAReplacement() throws {
        let forms = try WordTable(parsing: """
            множество  множество | genitive: множества | dative: множеству
            минус\\sбесконечность  минус бесконечность | genitive: минус бесконечности
            бесконечность  бесконечность | genitive: бесконечности | dative: бесконечности
            квадратный\\sкорень  квадратный корень | genitive: квадратного корня
            """, file: "ru/forms.txt")
        let ru = try LocaleWords(tag: "ru", settings: WordTable(), symbols: WordTable(), functions: WordTable(), units: WordTable(),
                                 numbers: WordTable(), contractions: try WordTable(parsing: "от\\s*  от *@genitive\nк\\s*  к *@dative\n",
                                                                                   file: "ru/contractions.txt"), forms: forms)
        let c = Contractions(chain: [ru])
        func words(_ w: String) -> SpeechDescription.Item { .words(w, range: nil, prosody: nil) }
        #expect(Self.apply(c, [words("f от"), words("множество всех x")]) == "f от множества всех x")
        #expect(Self.apply(c, [words("f от"), words("x")]) == "f от x")
        #expect(Self.apply(c, [words("интеграл от"), words("минус"), words("бесконечность до 0")]) == "интеграл от минус бесконечности до 0")
        #expect(Self.apply(c, [words("от"), words("минус x")]) == "от минус x")
        #expect(Self.apply(c, [words("стремится к бесконечность")]) == "стремится к бесконечности")
        #expect(Self.apply(c, [words("от квадратный корень из 2")]) == "от квадратного корня из 2")
        // A form the word lacks (no dative of "квадратный корень" here): the words stay.
        #expect(Self.apply(c, [words("к"), words("квадратный корень")]) == "к квадратный корень")
        #expect(Self.apply(c, [words("от"), .pause(.short), words("множество")]) == "от, множество")
        let child = try LocaleWords(tag: "ru-XX", settings: WordTable(parsing: "parent  ru\n", file: "ru-XX/locale.txt"), symbols: WordTable(),
                                    functions: WordTable(), units: WordTable(), numbers: WordTable(),
                                    forms: try WordTable(parsing: "множество  множество | genitive: МНОЖЕСТВА\n", file: "ru-XX/forms.txt"))
        #expect(Self.apply(Contractions(chain: [child, ru]), [words("от"), words("множество")]) == "от МНОЖЕСТВА")
    }

    /// Entries that undo each other or grow the words they change stop after a few changes, inside a
    /// part and where parts meet: a locale's files (or an override folder's) never hang speech.
    @Test func entriesThatUndoEachOtherStop() throws {
        let loop = Contractions(chain: [try Self.locale("xx", contractions: "a\\sb  a c\na\\sc  a b\nd\\se  d e e\n")])
        func words(_ w: String) -> SpeechDescription.Item { .words(w, range: nil, prosody: nil) }
        let inside = Self.apply(loop, [words("x a b y d e z")])
        #expect(inside.hasPrefix("x a ") && inside.hasSuffix(" z"))
        let across = Self.apply(loop, [words("x a"), words("b y"), words("d"), words("e z")])
        #expect(across.hasPrefix("x a ") && across.hasSuffix(" z"))
    }

    /// Keys the engine cannot read are reported (and change nothing), not ignored silently.
    @Test func malformedKeysAreProblems() {
        #expect(Contractions.problem(withKey: "von die") == nil)
        #expect(Contractions.problem(withKey: "von die *en") == nil)
        #expect(Contractions.problem(withKey: "*C 는") == nil)
        #expect(Contractions.problem(withKey: "von") != nil)
        #expect(Contractions.problem(withKey: "a b c d") != nil)
        #expect(Contractions.problem(withKey: "*V le") != nil)
        #expect(Contractions.problem(withKey: "*C 는 x") != nil)
        #expect(Contractions.problem(withKey: "de *X") != nil)
        #expect(Contractions.problem(withKey: "de * x") != nil)
    }

    /// `*C`: a first word ending in one of the `final-letters` (a Hangul syllable's final consonant
    /// after decomposition, a Latin letter in either case, a digit) changes the particle after it,
    /// at a boundary, inside one part and across a pause (which stays); other words keep it.
    @Test func particleAfterAFinalConsonant() throws {
        let ko = try Self.locale("ko", contractions: "*C\\s는  * 은\n", settings: "final-letters  ᆫᆯᇀ lmn 1\n")
        let c = Contractions(chain: [ko])
        #expect(Self.apply(c, [.words("분수끝", range: nil, prosody: nil), .words("는 y", range: nil, prosody: nil)]) == "분수끝 은 y")
        #expect(Self.apply(c, [.words("x", range: nil, prosody: nil), .words("는 y", range: nil, prosody: nil)]) == "x 는 y")
        #expect(Self.apply(c, [.words("대문자 L 는 1 는 가", range: nil, prosody: nil)]) == "대문자 L 은 1 은 가")
        #expect(Self.apply(c, [.words("분수시작 2 분의 1 분수끝", range: nil, prosody: nil), .pause(.short),
                               .words("는 y", range: nil, prosody: nil)]) == "분수시작 2 분의 1 분수끝, 은 y")
        #expect(Self.apply(c, [.words("x", range: nil, prosody: nil), .pause(.short),
                               .words("는 y", range: nil, prosody: nil)]) == "x, 는 y")
        #expect(Self.apply(c, [.words("사", range: nil, prosody: nil), .words("는", range: nil, prosody: nil)]) == "사 는")
    }

    @Test func elisionAndParentOverride() throws {
        let fr = try Self.locale("fr", contractions: "le\\s*V  l'*\nde\\sle  du\n", settings: "elision-initials  aeiouhé\n")
        let c = Contractions(chain: [fr])
        #expect(Self.apply(c, [.words("le", range: nil, prosody: nil), .words("intégrale de x", range: nil, prosody: nil)])
                == "l'intégrale de x")
        #expect(Self.apply(c, [.words("le", range: nil, prosody: nil), .words("carré", range: nil, prosody: nil)]) == "le carré")
        #expect(Self.apply(c, [.words("la racine de", range: nil, prosody: nil), .words("le carré", range: nil, prosody: nil)])
                == "la racine du carré")
        // An exact pair wins over a pattern, whatever the file order.
        let letters = Contractions(chain: [try Self.locale("fr", contractions: "de\\s*V  d'*\nde\\sa  de a\n", settings: "elision-initials  aeiou\n")])
        #expect(Self.apply(letters, [.words("de", range: nil, prosody: nil), .words("a", range: nil, prosody: nil)]) == "de a")
        #expect(Self.apply(letters, [.words("de", range: nil, prosody: nil), .words("un demi", range: nil, prosody: nil)]) == "d'un demi")
        #expect(Self.apply(letters, [.words("f de a de un", range: nil, prosody: nil)]) == "f de a d'un")
        let child = try Self.locale("fr-CA", contractions: "de\\sle  de le\n")
        #expect(Self.apply(Contractions(chain: [child, fr]), [.words("de", range: nil, prosody: nil), .words("le x", range: nil, prosody: nil)])
                == "de le x")
    }

    /// A variable's own name (an item the builder noted as literal) is in no pair of two words: the
    /// template's "de" meets the article "a" ("da raiz"), never the variable a ("f de a"). A pattern
    /// still elides before it, and an exact pair naming it keeps both words.
    @Test func aVariableNameIsInNoPairOfWords() throws {
        // Item k has the source range k..<k+1; `variable(k)` says the item at k is a variable's name.
        func words(_ texts: [String]) -> [SpeechDescription.Item] {
            texts.enumerated().map { .words($1, range: SourceRange($0, $0 + 1), prosody: nil) }
        }
        func variable(_ k: Int) -> (String, SourceRange) -> Bool { { _, r in r.lowerBound == k } }
        let pt = Contractions(chain: [try Self.locale("pt", contractions: "de\\sa  da\na\\so  ao\n")])
        let items = words(["f de", "a", "de", "a raiz"])
        var both = items
        pt.apply(to: &both, isVariable: variable(1))
        #expect(SpeechDescription.plainText(both[...]) == "f de a da raiz")
        var unmarked = items
        pt.apply(to: &unmarked)
        #expect(SpeechDescription.plainText(unmarked[...]) == "f da da raiz")
        // The variable first: "a" then "o quadrado" stays apart.
        var first = words(["a", "o quadrado"])
        pt.apply(to: &first, isVariable: variable(0))
        #expect(SpeechDescription.plainText(first[...]) == "a o quadrado")
        let fr = Contractions(chain: [try Self.locale("fr", contractions: "de\\s*V  d'*\nde\\sa  de a\n", settings: "elision-initials  aeiouxy\n")])
        var elided = words(["f de", "x"])
        fr.apply(to: &elided, isVariable: variable(1))
        #expect(SpeechDescription.plainText(elided[...]) == "f d'x")
        var kept = words(["f de", "a"])
        fr.apply(to: &kept, isVariable: variable(1))
        #expect(SpeechDescription.plainText(kept[...]) == "f de a")
    }
}

/// Rules inherited from another language, their literal words translated by the locale's phrases.
@Suite struct PhraseTableTests {
    @Test func parsesTranslationsRuleTranslationsAndEmptyOnes() throws {
        let t = try PhraseTable(parsing: """
            # comment
            the square root of => die Quadratwurzel aus
            [fraction-complex]  and   denominator => und Nenner   # a comment
            end root =>
            """, file: "de/clearspeak.phrases")
        #expect(t.translation(of: "the  square root of", rule: "any") == "die Quadratwurzel aus")
        #expect(t.translation(of: "and denominator", rule: "fraction-complex") == "und Nenner")
        #expect(t.translation(of: "and denominator", rule: "other") == nil)
        #expect(t.translation(of: "end root", rule: "x") == "")
    }

    @Test func linesEndingInCarriageReturnsAndWordsOfOtherScripts() throws {
        // A file saved with CRLF line ends reads as one with LF; a phrase's words in any script.
        let t = try PhraseTable(parsing: "# comment\r\nthe square root of => la racine carrée de\r\n[r]\tend root\t=>\tfin de la racine\r\nintegral => 積分\r\n",
                                file: "fr/x.phrases")
        #expect(t.translation(of: "the square root of", rule: "any") == "la racine carrée de")
        #expect(t.translation(of: "end root", rule: "r") == "fin de la racine")
        #expect(t.translation(of: "end root", rule: "s") == nil)
        #expect(t.translation(of: "integral", rule: "r") == "積分")
        // An empty phrase, and a bracket that is not closed (part of the phrase, not a rule's name).
        do {
            _ = try PhraseTable(parsing: "ok => yes\r\n  => nothing\n", file: "fr/x.phrases")
            Issue.record("a line without a phrase must be an error")
        } catch {
            #expect(error.errors.map(\.line) == [2])
        }
        let open = try PhraseTable(parsing: "[not closed => ouvert\n", file: "fr/x.phrases")
        #expect(open.translation(of: "[not closed", rule: "x") == "ouvert")
    }

    @Test func malformedLinesAreErrorsWithLocations() {
        #expect(throws: RuleFileErrors.self) { try PhraseTable(parsing: "no arrow here\n", file: "de/x.phrases") }
        do {
            _ = try PhraseTable(parsing: "a => b\na => c\n", file: "de/x.phrases")
            Issue.record("a phrase translated twice must be an error")
        } catch {
            #expect(error.errors.first?.line == 2)
        }
    }

    @Test func inheritedRulesAreTranslatedAndUntranslatedPhrasesListed() throws {
        let en = try RuleFile(parsing: """
            style Test
            locale en
            rule root for root
              say the square root of {radicand}, end root
              example \\sqrt{x} => the square root of x, end root
            rule frac for fraction
              say {numerator} over {denominator}
            """, file: "en/test.rules")
        let phrases = try PhraseTable(parsing: "the square root of => la racine carrée de\nend root => fin de la racine\n", file: "fr/test.phrases")
        var missing: [UntranslatedPhrase] = []
        let translated = en.rules.map { $0.translated(by: phrases, missing: &missing) }
        #expect(translated[0].template.contains(.words("la racine carrée de")))
        #expect(translated[0].examples.isEmpty)
        #expect(missing.map(\.phrase) == ["over"])
        #expect(missing.first?.location == "en/test.rules:6")
    }
}
