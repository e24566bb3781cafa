import Testing
import MathSyntax
import MathSemantics
@testable import MathSpeech

/// What a style built on another one needs from the rule language: `inherit … without preferences`,
/// `{inherited}`, `within … through …`, verbosity word variants, and preference problems as values.
@Suite struct StyleInheritanceTests {
    static let parent = #"""
    style Parent
    locale xx
    preference Mode: Plain Fancy
    preference Verbosity: Medium Terse

    rule fancy-letter for identifier
      when pref Mode = Fancy
      say fancy {text}
    rule letter for identifier
      say parent {text}
    rule fraction for fraction
      say {numerator} over {denominator}
    """#

    static let child = #"""
    style Child
    locale xx
    inherit xx/parent without preferences
    words child

    preference Verbosity: Medium Terse Verbose

    rule handed-back for identifier
      when text = y
      say {inherited}
    rule letter for identifier
      say child {text}
    rule nested-fraction for fraction
      when within fraction through infix, implied-times
      say nested {numerator} over {denominator}
    """#

    static func resources(childWords: String = "x  ex | terse: short\n+  plus\n") -> SpeechResources {
        SpeechResources(files: ["Rules/xx/parent.rules": parent, "Rules/xx/child.rules": child, "Rules/xx/child.words": childWords])
    }

    static func engine(_ preferences: [String: String] = [:]) throws -> (SpeechEngine, [PreferenceProblem]) {
        let style = try resources().style("child", locale: "xx")
        let locale = try LocaleWords(tag: "xx", settings: WordTable(), symbols: WordTable(), functions: WordTable(), units: WordTable(),
                                 numbers: WordTable())
        let resolved = style.resolve(preferences)
        return (SpeechEngine(style: style, lexicon: Lexicon(chain: [locale], styleWords: style.words), preferences: resolved.values),
                resolved.problems)
    }

    static func say(_ node: SemanticNode, _ preferences: [String: String] = [:]) throws -> String {
        try engine(preferences).0.speak(node).description.plainText
    }

    static func letter(_ text: String, role: SemanticNode.Role = .none) -> SemanticNode {
        SemanticNode(.identifier, text: text, role: role)
    }

    @Test func preferencesOfAFileInheritedWithoutThemAreFixed() throws {
        let style = try Self.resources().style("child", locale: "xx")
        #expect(style.preferences.map(\.name) == ["Verbosity"])
        #expect(style.preferences.first?.values == ["Medium", "Terse", "Verbose"])
        #expect(style.fixedPreferences.map(\.name) == ["Mode"])
        let resolved = style.resolve(["Mode": "Fancy"])
        // The inherited rules see the default; the request is a problem of the child style.
        #expect(resolved.values["Mode"] == "Plain")
        #expect(resolved.problems == [PreferenceProblem(.unknownName, name: "Mode", value: "Fancy", style: "Child", known: ["Verbosity"] + SpeechStyle.numberPreferences)])
        #expect(try Self.say(Self.letter("y"), ["Mode": "Fancy"]) == "parent y")
    }

    @Test func inheritedHandsANodeToTheInheritedRules() throws {
        #expect(try Self.say(Self.letter("y")) == "parent y")
        #expect(try Self.say(Self.letter("z")) == "child z")
    }

    @Test func withinThrough() throws {
        let inner = SemanticNode(.fraction, children: [Self.letter("a", role: .numerator), Self.letter("b", role: .denominator)],
                                 role: .item)
        let sum = SemanticNode(.infix, children: [Self.letter("z", role: .item), SemanticNode(.operator, text: "+", role: .operator), inner],
                               role: .numerator)
        let outer = SemanticNode(.fraction, children: [sum, Self.letter("z", role: .denominator)])
        #expect(try Self.say(outer) == "child z plus nested child a over child b over child z")
        // Under a root the inner fraction is not reached through the listed kinds.
        let root = SemanticNode(.root, children: [inner.withRole(.radicand)], role: .numerator)
        let other = SemanticNode(.fraction, children: [root, Self.letter("z", role: .denominator)])
        #expect(try Self.say(other) == "child a over child b over child z")
        #expect(try Self.say(inner.withRole(.none)) == "child a over child b")
    }

    /// A verbosity other than the style's default says the word variant of its name.
    @Test func verbosityChoosesWordVariants() throws {
        let (engine, _) = try Self.engine()
        let x = SemanticNode(.operator, text: "x")
        #expect(engine.speak(x).description.plainText == "ex")
        #expect(try Self.engine(["Verbosity": "Terse"]).0.speak(x).description.plainText == "short")
        #expect(try Self.engine(["Verbosity": "verbose"]).0.speak(x).description.plainText == "ex")
        #expect(engine.speak(x, preferences: ["Verbosity": "Terse"]).description.plainText == "short")
    }

    @Test func unknownValuesAreProblemsWithTheAllowedValues() throws {
        let (_, problems) = try Self.engine(["verbosity": "Chatty", "Colour": "Red"])
        #expect(problems.map(\.kind) == [.unknownName, .unknownValue])
        #expect(problems.map(\.id) == ["speech.unknown-preference", "speech.unknown-preference-value"])
        #expect(problems[1].known == ["Medium", "Terse", "Verbose"])
        #expect(problems[1].description.contains("unknown value 'Chatty' for preference Verbosity"))
        #expect(problems.allSatisfy { $0.diagnostic.severity == .warning && $0.diagnostic.range == nil })
    }

    @Test func inheritLineErrors() {
        for line in ["inherit", "inherit a b", "inherit a without"] {
            #expect(throws: RuleFileErrors.self) { try RuleFile(parsing: "style S\n\(line)\n", file: "xx/s.rules") }
        }
        let file = try? RuleFile(parsing: "style S\ninherit xx/p without preferences\ninherit xx/q\n", file: "xx/s.rules")
        #expect(file?.inherits == [RuleInheritance(path: "xx/p", offersPreferences: false), RuleInheritance(path: "xx/q")])
        #expect(throws: RuleFileErrors.self) {
            try RuleFile(parsing: "style S\nrule r for fraction\n  when within fraction through\n  say x\n", file: "xx/s.rules")
        }
    }

    /// `early`: a rule of another language's file that a language inherits is tried before that
    /// language's own rules (a reading of meaning its catch-all rules would hide); a rule of the
    /// language's own with the same name replaces it; within one language the order stays as written.
    @Test func earlyRulesOfAnotherLanguageComeFirst() throws {
        let english = #"""
        style Base
        locale en
        rule transpose for identifier
          early
          when text = t
          say transpose
        rule inverse for identifier
          early
          when text = i
          say inverse
        rule letter for identifier
          say letter {text}
        """#
        let other = #"""
        style Base
        locale yy
        inherit en/base
        rule inverse for identifier
          when text = i
          say own inverse
        rule letter for identifier
          say own {text}
        """#
        let resources = SpeechResources(files: ["Rules/en/base.rules": english, "Rules/yy/base.rules": other])
        func say(_ text: String, locale: String) throws -> String {
            let style = try resources.style("base", locale: locale)
            let words = try LocaleWords(tag: locale, settings: WordTable(), symbols: WordTable(), functions: WordTable(),
                                        units: WordTable(), numbers: WordTable())
            let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [words], styleWords: style.words),
                                      preferences: style.resolve([:]).values)
            return engine.speak(Self.letter(text)).description.plainText
        }
        // The early English rule precedes the language's catch-all; its own `inverse` replaces English's.
        #expect(try say("t", locale: "yy") == "transpose")
        #expect(try say("i", locale: "yy") == "own inverse")
        #expect(try say("x", locale: "yy") == "own x")
        #expect(try resources.style("base", locale: "yy").rules.map(\.name) == ["transpose", "inverse", "letter", "inverse", "letter"])
        // English itself is unchanged.
        #expect(try say("t", locale: "en") == "transpose")
        #expect(try say("x", locale: "en") == "letter x")
        #expect(try RuleFile(parsing: english, file: "en/base.rules").rules.map(\.early) == [true, true, false])
        for bad in ["rule r for fraction\n  early now\n  say x\n", "rule r for fraction\n  early\n  early\n  say x\n"] {
            #expect(throws: RuleFileErrors.self) { try RuleFile(parsing: "style S\n" + bad, file: "xx/s.rules") }
        }
    }

    /// `{inherited}` in an early rule looks at the rules of the files its own file inherits, in their
    /// order: an English style that hands a node back to the style it inherits still does so for a
    /// language that inherits it.
    @Test func anEarlyRuleHandsBackToTheFileItInherits() throws {
        let base = "style Base\nlocale en\nrule transpose for identifier\n  early\n  when text = t\n  say transpose\n"
        let short = "style Short\nlocale en\ninherit en/base without preferences\n"
            + "rule transpose for identifier\n  early\n  when text = t\n  say {inherited}\n"
        let other = "style Short\nlocale yy\ninherit en/short\nrule letter for identifier\n  say own {text}\n"
        let resources = SpeechResources(files: ["Rules/en/base.rules": base, "Rules/en/short.rules": short, "Rules/yy/short.rules": other])
        let style = try resources.style("short", locale: "yy")
        #expect(style.rules.map(\.file) == ["en/short.rules", "en/base.rules", "yy/short.rules"])
        let words = try LocaleWords(tag: "yy", settings: WordTable(), symbols: WordTable(), functions: WordTable(),
                                    units: WordTable(), numbers: WordTable())
        let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [words], styleWords: style.words),
                                  preferences: style.resolve([:]).values)
        #expect(engine.speak(Self.letter("t")).description.plainText == "transpose")
        #expect(engine.speak(Self.letter("x")).description.plainText == "own x")
    }
}

/// What a ``SpeechResources`` loads is kept for the next speaker: a style is compiled once (the last
/// ``LoadedFiles/styleCapacity`` ones are kept), and copies of the resources share it, except those
/// made by ``SpeechResources/forgettingLoaded()``.
@Suite struct LoadedFilesTests {
    @Test func aStyleIsCompiledOnceAndSharedByCopies() throws {
        let resources = StyleInheritanceTests.resources()
        let first = try resources.style("child", locale: "xx")
        let copy = resources
        #expect(try copy.style("child", locale: "xx").table === first.table)
        #expect(try resources.style("parent", locale: "xx").table !== first.table)
        #expect(try resources.forgettingLoaded().style("child", locale: "xx").table !== first.table)
        // With examples (tests, lint) the style is another one, kept apart.
        let withExamples = try resources.style("child", locale: "xx", examples: true)
        #expect(withExamples.table !== first.table)
        #expect(try resources.style("child", locale: "xx", examples: true).table === withExamples.table)
    }

    @Test func onlyTheLastStylesLoadedAreKept() throws {
        let count = 17
        var files: [String: String] = [:]
        for k in 0 ..< count { files["Rules/x\(k)/s.rules"] = "style S\nlocale x\(k)\nrule letter for identifier\n  say letter \(k) {text}\n" }
        let resources = SpeechResources(files: files)
        var tables: [RuleTable] = []
        for k in 0 ..< count { tables.append(try resources.style("s", locale: "x\(k)").table) }
        // 17 styles loaded, 16 kept: the first was dropped and is compiled again, the last is kept.
        #expect(try resources.style("s", locale: "x\(count - 1)").table === tables[count - 1])
        let again = try resources.style("s", locale: "x0")
        #expect(again.table !== tables[0])
        #expect(again.rules.map(\.name) == ["letter"])
    }
}
