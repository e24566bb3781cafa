// libFuzzer harness for the speech rule-file and word-file parsers and for the engine running what
// they parse (target MathSpeech). Build and run with `scripts/fuzz.sh rulefile`.
//
// Each input is decoded leniently and parsed as a rule file (`RuleFile(parsing:file:)`), as a word
// file (`WordTable(parsing:file:)`) and as a phrase file (`PhraseTable(parsing:file:)`). Errors are expected (they are thrown as
// `RuleFileErrors`); crashes, hangs and unbounded allocation are not. Error descriptions are rendered
// too, since they quote the input. A rule file that parses is compiled into a style and speaks a few
// fixed formulas, and a word file that parses is their locale's symbols: a locale author's files
// must never make the engine crash or read out of bounds (a `{=text}` without a format once indexed
// past the tree's property names).
import Foundation
import MathSyntax
import MathTeX
import MathSemantics
import MathSpeech

/// Formulas whose trees have most kinds, roles and properties the rules test: the lines of
/// `Fuzz/rulefile-formulas.txt` (read from the repository root, where `scripts/fuzz.sh` runs the
/// fuzzer; `RuleFileFuzzRegressionTests` speaks the same ones).
private let trees: [SemanticTree] = {
    guard let text = try? String(contentsOfFile: "Fuzz/rulefile-formulas.txt", encoding: .utf8) else {
        fatalError("Fuzz/rulefile-formulas.txt not found: run the fuzzer from the repository root (scripts/fuzz.sh does)")
    }
    let parser = TeXParser()
    let analyzer = SemanticAnalyzer()
    return text.split(separator: "\n").map { analyzer.tree(of: parser.parse(String($0)).root) }
}()

private let limits = SpeechLimits(maxRuleSteps: 100_000, maxOutputBytes: 1 << 16)

private func speak(_ style: SpeechStyle, symbols: WordTable) {
    guard let locale = try? LocaleWords(tag: "xx", settings: WordTable(), symbols: symbols, functions: WordTable(),
                                        units: WordTable(), numbers: WordTable()) else { return }
    let engine = SpeechEngine(style: style, lexicon: Lexicon(chain: [locale]), preferences: [:], limits: limits)
    for tree in trees { _ = engine.speak(tree).description.plainText }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let rules = try RuleFile(parsing: text, file: "xx/fuzz.rules")
        _ = rules.rules.count
        speak(SpeechStyle(files: [rules], words: WordTable()), symbols: WordTable())
    } catch {
        _ = error.description
    }
    do {
        let words = try WordTable(parsing: text, file: "xx/symbols.txt")
        _ = words.words("x")
        speak(SpeechStyle(files: [], words: WordTable()), symbols: words)
    } catch {
        _ = error.description
        _ = error.partial?.entries.count
    }
    // A phrase file (read on its bytes since session 44): its translations looked up as an inherited
    // rule's words are.
    do {
        let phrases = try PhraseTable(parsing: text, file: "xx/fuzz.phrases")
        for key in phrases.entries.keys.prefix(8) { _ = phrases.translation(of: key, rule: "r") }
    } catch {
        _ = error.description
    }
    return 0
}
