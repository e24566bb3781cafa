import Foundation
import MathAloud
import MathAloudDocuments

// `MathAloudBench documents`: a streamed document against the same document read at once (the peer
// is the one-shot conversion, run in the same invocation), and conversion of real documents.

/// The 2,000-formula document of the streaming test (StreamingTests.twoThousandFormulasOneCharacterAtATime):
/// inline and display math in four delimiters, money and code spans among them.
func twoThousandFormulaDocument() -> String {
    var text = ""
    for i in 0..<2000 {
        switch i % 4 {
        case 0: text += "Step \(i): $x_{\(i)} = \\frac{\(i)}{2}$ holds. "
        case 1: text += "Then $$\\sum_{k=1}^{\(i)} k^2$$\n"
        case 2: text += "and \\(a^{\(i)} + b\\), costing $\(i).\n"
        default: text += "so \\[\\sqrt{\(i)}\\] and `code $\(i)$`.\n\n"
        }
    }
    return text
}

/// Milliseconds, three significant places.
func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

func benchDocuments(_ o: Options) {
    guard let speaker = try? Speaker(cacheCapacity: 0) else { exit(4) }
    let text = twoThousandFormulaDocument()
    // Every formula analysed in both runs: no formula cache (the speaker's cache is off too).
    func processor() -> DocumentProcessor {
        DocumentProcessor(options: DocumentOptions(), speaker: speaker, cache: FormulaCache(capacity: 0))
    }
    let characters = text.map { String($0) }
    print("== stream: \(text.utf8.count) bytes, 2,000 formulas, MathML and labels, no cache; best of \(o.repeatCount)")
    var analysedOnce = 0, analysedStream = 0, scanned = 0, segmentsOnce = 0, segmentsStream = 0
    let once = bestOf(o.repeatCount) {
        let p = processor()
        segmentsOnce = p.process(text: text, format: .markdown).formulas.count
        analysedOnce = p.statistics.formulasAnalysed
    }
    func streamed(_ chunks: [String]) -> Double {
        bestOf(o.repeatCount) {
            let p = processor()
            let stream = MathStream(processor: p, format: .markdown)
            var formulas = 0
            for chunk in chunks {
                for case .formula in stream.append(chunk) { formulas += 1 }
            }
            for case .formula in stream.finish() { formulas += 1 }
            segmentsStream = formulas
            analysedStream = p.statistics.formulasAnalysed
            scanned = stream.bytesScanned
        }
    }
    let perCharacter = streamed(characters)
    print("one shot (process)          \(ms(once))   formulas \(segmentsOnce), analysed \(analysedOnce)")
    print("one character at a time     \(ms(perCharacter))   formulas \(segmentsStream), analysed \(analysedStream), bytes scanned \(scanned) (\(String(format: "%.2f", Double(scanned) / Double(text.utf8.count)))× the text)   ratio \(String(format: "%.2f", perCharacter / once))×")
    // Chat-sized chunks: tokens of about four characters.
    var tokens: [String] = [], token = ""
    for c in characters { token += c; if token.count == 4 { tokens.append(token); token = "" } }
    if !token.isEmpty { tokens.append(token) }
    let perToken = streamed(tokens)
    print("4-character tokens          \(ms(perToken))   ratio \(String(format: "%.2f", perToken / once))×")

    // Real documents: conversion to HTML with MathML (what `mathaloud convert FILE` does), cache on.
    print("== convert (MathML with alttext and aria-label), best of \(o.repeatCount)")
    let fixtures = "Tests/MathAloudDocumentsTests/Fixtures/"
    let documents: [(String, DocumentFormat)] = [
        ("README.md", .markdown), (fixtures + "d2l-linear-regression.md", .markdown),
        (fixtures + "mathjax-tex-mml.html", .html), (fixtures + "mathjax-equation-refs.html", .html),
        (fixtures + "scipy-lecture.ipynb", .notebook),
    ]
    for (path, format) in documents {
        guard let data = FileManager.default.contents(atPath: path) else { print("\(path): cannot read"); continue }
        let bytes = Array(data)
        var formulas = 0, labelled = 0
        let seconds = bestOf(o.repeatCount) {
            let p = DocumentProcessor(options: DocumentOptions(), speaker: speaker)
            guard let result = try? DocumentConverter(processor: p).convert(bytes: bytes, format: format) else { return }
            formulas = result.formulaCount
            labelled = result.labelledCount
        }
        print("\(path.replacingOccurrences(of: fixtures, with: ""))  \(bytes.count) bytes  formulas \(formulas), labelled \(labelled)  \(ms(seconds))  \(String(format: "%.0f", Double(formulas) / seconds)) formulas/s")
    }
}
