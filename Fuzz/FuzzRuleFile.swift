// libFuzzer harness for the speech rule-file and word-file parsers (target MathSpeech). Build and
// run with `scripts/fuzz.sh rulefile`.
//
// Each input is decoded leniently and parsed both as a rule file (`RuleFile(parsing:file:)`) and as
// a word file (`WordTable(parsing:file:)`). Errors are expected (they are thrown as
// `RuleFileErrors`); crashes, hangs and unbounded allocation are not. Error descriptions are rendered
// too, since they quote the input.
import MathSpeech

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let rules = try RuleFile(parsing: text, file: "fuzz.rules")
        _ = rules.rules.count
    } catch {
        _ = error.description
    }
    do {
        let words = try WordTable(parsing: text, file: "fuzz.words")
        _ = words.words("x")
    } catch {
        _ = error.description
        _ = error.partial?.entries.count
    }
    return 0
}
