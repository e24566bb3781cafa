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
        #expect(resolved.problems == [PreferenceProblem(.unknownName, name: "Mode", value: "Fancy", style: "Child", known: ["Verbosity"])])
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
}
