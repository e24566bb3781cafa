import Foundation
import Testing
@testable import MathAloud

/// Every shipped rule file loads, and every inline example in it produces its speech.
@Suite struct RuleFileTests {
    static var resources: SpeechResources { SpeechResources(files: EmbeddedSpeechResources.files) }

    struct Style: Sendable, CustomStringConvertible {
        let locale: String
        let style: String
        var description: String { "\(locale)/\(style)" }
    }

    static var styles: [Style] {
        resources.locales.flatMap { locale in resources.styles(for: locale).map { Style(locale: locale, style: $0) } }
    }

    @Test func shippedFilesExist() {
        #expect(Self.resources.locales.contains("en"))
        #expect(Self.resources.styles(for: "en").contains("clearspeak"))
    }

    @Test(arguments: styles)
    func styleLoads(_ s: Style) throws {
        let speaker = try Speaker(locale: LocaleTag(s.locale), style: SpeechStyleName(s.style))
        #expect(!speaker.availablePreferences.isEmpty || s.style != "clearspeak")
    }

    struct Example: Sendable, CustomStringConvertible {
        let style: Style
        let rule: String
        let example: RuleExample
        var description: String { "\(example.file):\(example.line) \(rule): \(example.tex)" }
    }

    static var examples: [Example] {
        var all: [Example] = []
        for s in styles {
            guard let style = try? resources.style(s.style, locale: s.locale, examples: true) else { continue }
            // Only the style's own file: inherited examples are run with their own style.
            for rule in style.rules where rule.file == "\(s.locale)/\(s.style).rules" {
                for e in rule.examples { all.append(Example(style: s, rule: rule.name, example: e)) }
            }
        }
        return all
    }

    @Test func everyStyleHasExamples() {
        #expect(Self.examples.count > 100)
    }

    @Test(arguments: examples)
    func example(_ e: Example) throws {
        let speaker = try SpeakerCache.shared.speaker(locale: e.style.locale, style: e.style.style, preferences: e.example.preferences)
        #expect(speaker.preferenceProblems.isEmpty, "\(speaker.preferenceProblems)")
        // An example written as MathML (`<math>…</math>`) is read as MathML.
        let spoken = e.example.tex.hasPrefix("<math") ? speaker.speak(mathML: e.example.tex) : speaker.speak(tex: e.example.tex)
        let dropSpaces = e.style.style == "mathspeak"
        #expect(normalizedSpeech(spoken.text, dropSpaces: dropSpaces) == normalizedSpeech(e.example.speech, dropSpaces: dropSpaces),
                "\(e.example.file):\(e.example.line) (\(e.rule)): \(e.example.tex)\n  got:      \(spoken.text)\n  expected: \(e.example.speech)")
        // `[Pauses=Exact]`: the pauses stand where the expectation has them.
        if e.example.exactPauses {
            #expect(LocaleTools.matches(spoken.text, e.example.speech, style: e.style.style, pauses: true),
                    "\(e.example.file):\(e.example.line) (\(e.rule)): pauses\n  got:      \(spoken.text)\n  expected: \(e.example.speech)")
        }
    }

    @Test func ruleFileErrorsHaveLocations() {
        let text = """
        style Broken
        locale en
        rule a for fraction
          when numerator.simple and pref Fractions oops
          say {numerator over {denominator}
        rule a for power
          say x
        nonsense here
        """
        do {
            _ = try RuleFile(parsing: text, file: "en/broken.rules")
            Issue.record("expected errors")
        } catch {
            let lines = error.errors.map { "\($0.line):\($0.column) \($0.rule ?? "-")" }
            #expect(lines.contains("4:3 a") || lines.contains { $0.hasPrefix("4:") && $0.hasSuffix(" a") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("5:") && $0.hasSuffix(" a") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("6:") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("8:1") }, "\(lines)")
            #expect(error.errors.allSatisfy { $0.file == "en/broken.rules" })
        }
    }

    /// `{level}` says the node's level's indicator, `{level:silent}` takes the level up without it; any
    /// other format of `level` is an error at its line.
    @Test func levelReferencesParse() throws {
        let good = try RuleFile(parsing: "style S\nlocale en\nrule a for table-cell\n  say {level} {children} {level:silent}\n",
                                file: "en/s.rules")
        #expect(good.rules.first?.template.contains(.levelMark) == true)
        #expect(good.rules.first?.template.contains(.levelSilent) == true)
        do {
            _ = try RuleFile(parsing: "style S\nlocale en\nrule a for table-cell\n  say {children} {level:quiet}\n", file: "en/s.rules")
            Issue.record("expected an error for {level:quiet}")
        } catch {
            #expect(error.errors.contains { $0.line == 4 && $0.message.contains("{level:silent}") }, "\(error.errors)")
        }
    }

    /// `first` alone is the node's place among its siblings; followed by a test it is the first child, as in a
    /// path (`first is identifier` once read as `first`, the test after it dropped). `followed` takes nothing.
    @Test func firstAndFollowedConditions() throws {
        let file = try RuleFile(parsing: """
            style S
            locale en
            rule a for implied-times
              when first and first is identifier and not first.text = x
              say a
            """, file: "en/s.rules")
        let conditions = try #require(file.rules.first).conditions
        #expect(conditions.count == 3)
        #expect(conditions[0] == .first(negated: false), "\(conditions)")
        #expect(conditions[1] == .kind(path: ["first"], kinds: ["identifier"], negated: false), "\(conditions)")
        do {
            _ = try RuleFile(parsing: "style S\nlocale en\nrule b for identifier\n  when followed is number\n  say b\n", file: "en/s.rules")
            Issue.record("expected an error for 'followed is number'")
        } catch {
            #expect(error.errors.contains { $0.line == 4 && $0.message.contains("'followed' takes nothing") }, "\(error.errors)")
        }
    }

    /// `either` … `or`: the `when` conditions hold with one choice; each choice is compiled as a rule of
    /// its own in the rule's place, the examples staying with the first. An `or` without `either`, a
    /// second `either` and a choice without conditions are errors at their lines.
    @Test func eitherOrChoices() throws {
        let file = try RuleFile(parsing: """
            style S
            locale en
            rule a for identifier
              when not pref Meaning = Literal
              either text = x
              # a comment between choices
              or text = y and role is numerator
              say chosen {text}
              example x => chosen x
            """, file: "en/s.rules")
        let rule = try #require(file.rules.first)
        #expect(rule.conditions.count == 1 && rule.alternatives.map(\.count) == [1, 2])
        #expect(rule.alternativePositions.map { $0.map(\.line) } == [[5], [7, 7]])
        #expect(rule.conditionSets.map(\.conditions.count) == [2, 3])
        let compiled = rule.compiled
        #expect(compiled.map(\.name) == ["a", "a"] && compiled.map(\.conditions.count) == [2, 3])
        #expect(compiled.map(\.examples.count) == [1, 0] && compiled.allSatisfy { $0.alternatives.isEmpty })
        for (text, line, message) in [("  or text = x\n  say b", 4, "follows an 'either' line"),
                                      ("  either text = x\n  either text = y\n  say b", 5, "one 'either' line"),
                                      ("  either\n  say b", 4, "conditions after 'either'")] {
            do {
                _ = try RuleFile(parsing: "style S\nlocale en\nrule b for identifier\n" + text + "\n", file: "en/s.rules")
                Issue.record("expected an error: \(text)")
            } catch {
                #expect(error.errors.contains { $0.line == line && $0.message.contains(message) }, "\(error.errors)")
            }
        }
    }
}
