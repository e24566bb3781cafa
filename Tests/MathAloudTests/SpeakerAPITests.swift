import Foundation
import Testing
@testable import MathAloud

/// The public speech API: speaker, labels, SSML, one-call conveniences, concurrency.
@Suite struct SpeakerAPITests {
    @Test func oneCallConveniences() {
        #expect(Speaker.speech(forTeX: #"\sqrt{x}"#) == "the square root of x")
        #expect(Speaker.label(forTeX: "x^2", template: "Math: {speech}") == "Math: x squared")
    }

    @Test func labelTemplates() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        #expect(speaker.label(tex: "x^2") == "x squared")
        #expect(speaker.label(tex: "x^2", template: "<speech> = <latex>") == "x squared = x^2")
        #expect(speaker.label(tex: "x^2", template: "{latex} {unknown} {speech") == "x^2 {unknown} {speech")
        #expect(speaker.label(tex: "x^2") { "formula " + $0 } == "formula x^2")
        // Nothing is escaped: writers escape for their format.
        #expect(speaker.label(tex: "a < b", template: "{latex}") == "a < b")
        #expect(speaker.label(tex: "x^2", template: "") == "")
        #expect(speaker.label(tex: "x^2", template: "{speech}, {speech}.") == "x squared, x squared.")
        #expect(speaker.label(tex: "x^2", template: "<b>{latex}</b>") == "<b>x^2</b>")
    }

    @Test func speechDescriptionCarriesRangesAndPauses() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = speaker.speak(tex: #"\frac{x+1}{2} + y"#)
        let pauses = spoken.speech.items.filter { if case .pause = $0 { return true } else { return false } }
        #expect(!pauses.isEmpty)
        let yWord = spoken.speech.items.compactMap { item -> SourceRange? in
            if case let .words("y", range, _) = item { return range } else { return nil }
        }
        #expect(yWord == [SourceRange(16, 17)])
    }

    @Test func ssmlBreaksAndProsody() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = speaker.speak(tex: "x^{n+1} + y_i")
        let plain = SSMLRenderer().render(spoken.speech)
        #expect(plain.hasPrefix("<speak version=\"1.1\""))
        #expect(!plain.contains("<prosody"))
        let prosody = SSMLRenderer(scriptProsody: true).render(spoken.speech)
        #expect(prosody.contains("<prosody pitch=\"+15%\">"))
        #expect(prosody.contains("<prosody pitch=\"-15%\">"))
        let slow = SSMLRenderer(pauseScale: 2).render(speaker.speak(tex: #"\frac{x+1}{2}"#).speech)
        #expect(slow.contains("<break time=\"500ms\"/>"))
    }

    @Test func mathMLInputSpeaksLikeTeX() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let mathml = "<math><mfrac><mn>3</mn><mn>4</mn></mfrac><mo>+</mo><msup><mi>x</mi><mn>2</mn></msup></math>"
        #expect(speaker.speak(mathML: mathml).text == speaker.speak(tex: #"\frac{3}{4} + x^2"#).text)
    }

    @Test func unknownCommandIsReadByNameAndReported() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = speaker.speak(tex: #"\foo + 1"#)
        #expect(spoken.text == "foo plus 1")
        let d = spoken.diagnostics.first { $0.id == "tex.unknown-command" }
        // Spoken by name: a warning for speech (the parser alone reports an error).
        #expect(d?.severity == .warning && d?.message.hasSuffix("read by name") == true)
        #expect(d?.range == SourceRange(0, 4))
    }

    @Test func preferenceAliases() throws {
        let speaker = try Speaker(preferences: ["fraction": "over", "CAPS": "saycaps", "multsymbolx": "BY"])
        #expect(speaker.preferenceProblems.isEmpty)
        #expect(speaker.preferences["Fractions"] == "Over")
        #expect(speaker.preferences["CapitalLetters"] == "SayCaps")
        #expect(speaker.preferences["MultSymbolX"] == "By")
        let bad = try Speaker(preferences: ["Fractions": "Sideways", "Colour": "Red"])
        #expect(bad.preferenceProblems.map(\.kind) == [.unknownName, .unknownValue])
    }

    /// A preference the style cannot use is a warning of every formula the speaker speaks, and the
    /// formula is spoken without it (MathCAT sends its own preferences with every request).
    @Test func unknownPreferencesAreWarnings() throws {
        let speaker = try Speaker(style: .simpleSpeak, preferences: ["Verbosity": "Medium", "AutoZoomOut": "True",
                                                                       "Impairment": "Sleepy"])
        #expect(speaker.preferences["Verbosity"] == "Medium" && speaker.preferences["Impairment"] == "Blindness")
        let spoken = speaker.speak(tex: #"\sqrt{x + 1}"#)
        #expect(spoken.text == "the square root of x plus 1, end root")
        #expect(spoken.diagnostics.map(\.id) == ["speech.unknown-preference", "speech.unknown-preference-value"])
        #expect(spoken.diagnostics.allSatisfy { $0.severity == .warning && $0.range == nil })
        #expect(spoken.speechDiagnostics.map(\.id) == spoken.diagnostics.map(\.id))
        // Prose with several formulas reports them once.
        let text = speaker.speak(text: "Take $x$ and $y$.")
        #expect(text.text == "Take x and y.")
        #expect(text.diagnostics.map(\.id) == ["speech.unknown-preference", "speech.unknown-preference-value"])
    }

    /// Every style accepts Verbosity (MathCAT sends it with every request), with its own values.
    @Test func verbosityIsAPreferenceOfEveryStyle() throws {
        let values: [(SpeechStyleName, [String])] = [(.clearSpeak, ["Medium", "Terse", "Verbose"]),
                                                     (.simpleSpeak, ["Medium", "Terse", "Verbose"]),
                                                     (.mathSpeak, ["Verbose", "Brief", "Superbrief"])]
        for (style, expected) in values {
            let speaker = try Speaker(style: style, preferences: ["verbosity": expected[1].lowercased()])
            #expect(speaker.preferenceProblems.isEmpty, "\(style)")
            #expect(speaker.availablePreferences.first { $0.name == "Verbosity" }?.values == expected, "\(style)")
            #expect(speaker.verbosity == Verbosity(name: expected[1]), "\(style)")
            // The typed parameter sets the same preference.
            let typed = try Speaker(style: style, verbosity: Verbosity(name: expected[1]))
            #expect(typed.preferences["Verbosity"] == expected[1], "\(style)")
        }
        #expect(try Speaker(style: .mathSpeak, verbosity: .terse).preferenceProblems.map(\.kind) == [.unknownValue])
        let terse = try Speaker(style: .simpleSpeak, verbosity: .terse)
        #expect(terse.speak(tex: #"\sqrt{x} + x_1"#).text == "square root x, plus x 1")
        // MathSpeak keeps its own values: MathCAT's Medium is reported, and Verbose is used.
        let mathSpeak = try Speaker(style: .mathSpeak, preferences: ["Verbosity": "Medium"])
        #expect(mathSpeak.preferenceProblems.map(\.kind) == [.unknownValue])
        #expect(mathSpeak.speak(tex: #"\frac{1}{x}"#).text == "StartFraction 1 Over x EndFraction")
    }

    @Test func concurrentCallersShareOneSpeaker() throws {
        let speaker = try Speaker(cacheCapacity: 64)
        let formulas = [#"\frac{3}{4}"#, "x^2", #"\sqrt{2}"#, #"\sum_{i=1}^n i"#, "|x|", #"\int_0^1 x\,dx"#]
        let expected = formulas.map { speaker.speak(tex: $0).text }
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for round in 0..<200 {
                let i = (worker + round) % formulas.count
                if speaker.speak(tex: formulas[i]).text != expected[i] { failures.increment() }
            }
        }
        #expect(failures.value == 0)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var value = 0
        func increment() { lock.lock(); value += 1; lock.unlock() }
    }

    @Test func speaksProseWithInlineMath() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let result = speaker.speak(text: "Let $x^2$ be \\(\\frac{1}{2}\\) and $\\foo$.")
        #expect(result.text == "Let x squared be one half and foo.")
        // The diagnostic points into the prose, not into the formula.
        let d = result.diagnostics.first { $0.id == "tex.unknown-command" }
        #expect(d?.range == SourceRange(34, 38))
        // An escaped dollar is a dollar for a listener (a voice said the backslash).
        #expect(speaker.speak(text: #"an escaped \$5 is money and $x$ too"#).text == "an escaped $5 is money and x too")
    }
}

/// `SpeechBatchProcessor.process(lines:)`: all cores, input order, one answer per line.
@Suite struct SpeechBatchProcessorTests {
    @Test func parallelLinesKeepOrderAndMatchOneByOne() {
        let processor = SpeechBatchProcessor()
        var lines = (0..<300).map { #"{"id":\#($0),"tex":"x^{\#($0)}+\\frac{1}{\#($0 + 1)}"}"# }
        lines[17] = "not json"
        lines[42] = #"{"id":42}"#
        lines[99] = #"{"id":99,"tex":"\\frac{1}{","style":"mathspeak"}"#
        let parallel = processor.process(lines: lines)
        #expect(parallel.count == lines.count)
        #expect(parallel == lines.map { processor.process(line: $0) })
        #expect(parallel[17] == #"{"error":"the line is not valid JSON: unexpected 'not' at column 1","id":null}"#)
        #expect(parallel[42].contains(#""error":"#))
        #expect(parallel[99].contains(#""id":99"#) && parallel[99].contains(#""diagnostics":[{"#))
        #expect(parallel[3].contains(#""id":3,"speech":"x cubed plus one fourth""#))
    }
}

/// The semantic tree in both forms, as the README shows them.
@Suite struct SemanticTreeAPITests {
    @Test func spokenFormulaCarriesTheTreeItSpoke() throws {
        let speaker = try SpeakerCache.shared.speaker(style: "clearspeak")
        let spoken = speaker.speak(tex: #"\frac{1}{2}"#)
        #expect(spoken.semantics.kind == .fraction)
        #expect(spoken.semantics.has("common"))
        #expect(spoken.semanticTree.root == spoken.semantics)
        #expect(SemanticAnalyzer().tree(of: TeXParser().parse("x^2").root).root.kind == .power)
        // A hand-built object tree speaks through the engine as the analysis's own tree does.
        let resources = try SpeechResources(builtIn: EmbeddedSpeechResources.files)
        let style = try resources.style("clearspeak", locale: "en")
        let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: try resources.lexiconChain(for: "en"), styleWords: style.words))
        #expect(engine.speak(spoken.semantics).description.plainText == "one half")
        #expect(engine.speak(SemanticTree(spoken.semantics)).description.plainText == spoken.text)
    }
}
