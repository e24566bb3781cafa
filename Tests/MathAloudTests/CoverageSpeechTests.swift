import Foundation
import Testing
@testable import MathAloud
@testable import MathTeX

/// Every formula of arxiv-public.txt is spoken, and every command the TeX parser knows has words.
@Suite struct CoverageSpeechTests {
    /// Whether speech fell back to reading something by name (a missing word or an unknown command).
    static func fellBack(_ spoken: SpokenFormula) -> Bool {
        spoken.diagnostics.contains { $0.id == "speech.missing-word" || $0.id == "tex.unknown-command" }
    }

    @Test func arxivFormulasAreAllSpoken() throws {
        let text = try String(contentsOf: fixtureURL("arxiv-public.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4148)
        for style in ["clearspeak", "simplespeak", "mathspeak"] {
            let speaker = try SpeakerCache.shared.speaker(style: style)
            var fallbacks: [String] = []
            var empty = 0
            for line in lines {
                let spoken = speaker.speak(tex: line)
                if spoken.text.isEmpty { empty += 1 }
                if Self.fellBack(spoken) { fallbacks.append(line) }
            }
            let rate = Double(fallbacks.count) / Double(lines.count)
            print("\(style): \(lines.count) arXiv formulas spoken, \(empty) empty, \(fallbacks.count) with a read-by-name fallback (\(String(format: "%.2f", rate * 100)) %)")
            for f in fallbacks.prefix(10) { print("  fallback: \(f)") }
            #expect(empty == 0)
            #expect(rate <= 0.005)
        }
    }

    /// `--explain` changes nothing in what is said: the speech traced equals the speech untraced, and
    /// the root's trace entry says it all (its pauses inside included).
    @Test func explainingKeepsTheSpeech() throws {
        let text = try String(contentsOf: fixtureURL("arxiv-public.txt"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        for file in ["en-clearspeak.jsonl", "en-mathspeak.jsonl"] {
            lines += try jsonLines(file).map { $0["tex"] as! String }
        }
        for style in ["clearspeak", "simplespeak", "mathspeak"] {
            let speaker = try SpeakerCache.shared.speaker(style: style)
            var differing: [String] = []
            for line in lines {
                let plain = speaker.speak(tex: line), traced = speaker.speak(tex: line, explain: true)
                if plain.speech != traced.speech || traced.trace.first?.speech != plain.text { differing.append(line) }
            }
            for d in differing.prefix(5) { print("  \(style) --explain differs: \(d)") }
            #expect(differing.isEmpty, "\(style): \(differing.count) formulas spoken differently when explained")
        }
    }

    /// A sample use of each command: its name with enough braced arguments.
    static func sample(_ name: String) -> String {
        switch name {
        case "begin": return #"\begin{array}{c} \toprule a \\ \midrule \cmidrule(lr){1-1} b \\ \intertext{c} \shortintertext{d} e \\ \bottomrule\end{array}"#
        case "end", "right", "middle", "\\", "cr", "newline", "nonumber", "notag", "hline", "hdashline",
             "over", "atop", "choose", "brace", "brack", "above", "limits", "nolimits", "displaylimits",
             "def", "gdef", "edef", "xdef", "newcommand", "renewcommand", "providecommand", "let",
             "DeclareMathOperator", "global", "long", "relax", "/", "uppercase", "lowercase", "bgroup",
             "egroup", "verb", "label", "tag", "eqno", "leqno",
             // Table rules and prose between rows: only inside an environment (the sample of `begin` reads them).
             "toprule", "midrule", "bottomrule", "cmidrule", "intertext", "shortintertext":
            return ""
        case "ifbool", "notbool", "iftoggle", "nottoggle": return "\\\(name){x}{a}{b}"
        case "resizebox": return #"\resizebox{1cm}{!}{a}"#
        case "DeclarePairedDelimiter": return #"\DeclarePairedDelimiter\abs{\lvert}{\rvert}\abs{a}"#
        case "DeclarePairedDelimiterX": return #"\DeclarePairedDelimiterX\inner[2]{\langle}{\rangle}{#1, #2}\inner{a}{b}"#
        case "NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand", "DeclareDocumentCommand":
            return "\\\(name){\\foo}{m}{#1^2}\\foo{a}"
        case "left": return #"\left( a \right)"#
        case "genfrac": return #"\genfrac(){0pt}{}{a}{b}"#
        case "fcolorbox": return #"\fcolorbox{red}{blue}{a}"#
        case "colorbox", "textcolor", "color": return "\\\(name){red}{a}"
        case "char": return #"\char"41"#
        case "rule": return #"\rule{1em}{1em}"#
        case "hspace", "kern", "mkern", "hskip", "mskip", "mspace": return "a\\\(name){1em}b"
        case "href": return #"\href{https://example.org}{a}"#
        case "url": return #"\url{https://example.org}"#
        case "htmlClass", "htmlId", "htmlStyle", "htmlData": return "\\\(name){x}{a}"
        case "includegraphics": return #"\includegraphics{a.png}"#
        case "raisebox": return #"\raisebox{1em}{a}"#
        case "mathchoice": return #"\mathchoice{a}{b}{c}{d}"#
        case "substack": return #"\sum_{\substack{a \\ b}} c"#
        case "not": return #"a \not= b"#
        case "ref", "eqref": return "\\\(name){a}"
        case _ where name.hasPrefix("big") || name.hasPrefix("Big"): return "\\\(name)( a \\\(name))"
        default:
            if name.count == 1 || TeXParser.isSymbol(name) { return "a \\\(name) b" }
            return "\\\(name){a}{b}"
        }
    }

    @Test func everyCommandHasWords() throws {
        // Trusted, so that \href, \htmlClass, \includegraphics… are read rather than refused.
        let speaker = try Speaker(style: .clearSpeak, texOptions: TeXParserOptions(trust: .trusted), cacheCapacity: 0)
        var missing: [String] = []
        for name in TeXParser.knownCommands {
            let tex = Self.sample(name)
            if tex.isEmpty { continue }
            let spoken = speaker.speak(tex: tex)
            if spoken.diagnostics.contains(where: { $0.id == "speech.missing-word" || $0.severity == .error }) {
                missing.append("\\\(name): \(tex) → \(spoken.text) \(spoken.diagnostics.map(\.message))")
            }
        }
        for m in missing { Issue.record("\(m)") }
        #expect(TeXParser.knownCommands.count > 900)
    }
}
