import Foundation
import Testing
@testable import MathAloud

/// The reference suites (development half, copied into `Fixtures/reference/` by
/// `scripts/refresh-reference-fixtures.py`) scored as `../shared/tools/score-reference.py` scores them,
/// with floors at the figures reached (`Fixtures/reference-floors.tsv`), so a change cannot quietly
/// lose them. The test prints every corpus's rates.
@Suite struct ReferenceScoreTests {
    struct Floor { let corpus: String; let exact: Double; let macro: Double }

    static func floors() throws -> [Floor] {
        let text = try String(contentsOf: fixtureURL("reference-floors.tsv"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Floor? in
            if line.hasPrefix("#") { return nil }
            let f = line.split(separator: "\t").map(String.init)
            guard f.count >= 3, let e = Double(f[1]), let m = Double(f[2]) else { return nil }
            return Floor(corpus: f[0], exact: e, macro: m)
        }
    }

    static let inputs: [String] = (try? jsonLines("reference-inputs.jsonl").map { $0["mathml"] as! String }) ?? []

    /// (exact rate, mean of per-category exact rates, cases) of one corpus.
    static func score(_ corpus: String) throws -> (exact: Double, macro: Double, n: Int) {
        var perCategory: [String: (n: Int, exact: Int)] = [:]
        var total = 0, exact = 0
        var speakers: [String: Speaker] = [:]
        for c in try jsonLines("reference/\(corpus).jsonl") {
            let locale = c["locale"] as! String, style = c["style"] as! String
            var preferences: [String: String] = [:]
            for (k, v) in c["preferences"] as? [String: Any] ?? [:] { preferences[k] = "\(v)" }
            let key = "\(locale)|\(style)|" + preferences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            let speaker: Speaker
            if let s = speakers[key] { speaker = s } else {
                speaker = try Speaker(locale: LocaleTag(locale), style: SpeechStyleName(style), preferences: preferences, cacheCapacity: 0)
                speakers[key] = speaker
            }
            let text = speaker.speak(mathML: inputs[c["input"] as! Int]).text
            let ok = ReferenceNormalizer.normalize(text, locale: locale) == ReferenceNormalizer.normalize(c["expected"] as! String, locale: locale)
            total += 1
            if ok { exact += 1 }
            let cat = c["category"] as? String ?? ""
            var entry = perCategory[cat] ?? (0, 0)
            entry.n += 1
            if ok { entry.exact += 1 }
            perCategory[cat] = entry
        }
        let macro = perCategory.values.map { Double($0.exact) / Double($0.n) }.reduce(0, +) / Double(max(1, perCategory.count))
        return (Double(exact) / Double(max(1, total)), macro, total)
    }

    @Test(arguments: try floors())
    func referenceScoreStaysAboveItsFloor(_ floor: Floor) throws {
        let s = try Self.score(floor.corpus)
        print(String(format: "  reference %@: n=%d exact=%.4f macro_exact=%.4f (floors %.4f, %.4f)",
                     floor.corpus, s.n, s.exact, s.macro, floor.exact, floor.macro))
        #expect(s.exact >= floor.exact, "\(floor.corpus): exact \(s.exact) below \(floor.exact)")
        #expect(s.macro >= floor.macro, "\(floor.corpus): macro \(s.macro) below \(floor.macro)")
    }

    /// The corpora of the fixtures (`reference/<suite>-<locale>-<style>.jsonl`) by suite, locale and style.
    static func corpora() throws -> [(name: String, locale: String, style: String)] {
        let folder = fixtureURL("reference")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted().compactMap { file in
            let name = String(file.dropLast(".jsonl".count))
            let parts = name.split(separator: "-").map(String.init)
            guard parts.count >= 3 else { return nil }
            return (name, parts[1 ..< parts.count - 1].joined(separator: "-"), parts[parts.count - 1])
        }
    }

    /// Every reference corpus of a shipped locale and style has a floor, so the suite scores every
    /// locale (a new locale adds its rows to `reference-floors.tsv` at the figures it reaches; the
    /// scores are printed by ``referenceScoreStaysAboveItsFloor(_:)``).
    @Test func everyShippedLocaleAndStyleHasAFloor() throws {
        let resources = SpeechResources(files: EmbeddedSpeechResources.files)
        let floored = Set(try Self.floors().map(\.corpus))
        var missing: [String] = []
        for c in try Self.corpora() where resources.locales.contains(where: { LocaleTag($0) == LocaleTag(c.locale) }) {
            let folder = resources.locales.first { LocaleTag($0) == LocaleTag(c.locale) }!
            guard LocaleTools.styles(resources, locale: folder).contains(c.style) else { continue }
            if !floored.contains(c.name) { missing.append(c.name) }
        }
        #expect(missing.isEmpty, "reference corpora of shipped locales without a row in reference-floors.tsv: \(missing)")
    }

    @Test func normalizerMatchesTheScorer() {
        #expect(ReferenceNormalizer.normalize("StartFraction 1 Over x EndFraction", locale: "en") == "startfraction 1 over x endfraction")
        #expect(ReferenceNormalizer.normalize("twenty-three, plus-or-minus 3.5; one hundred five", locale: "en") == "23 plus or minus 3.5 105")
        #expect(ReferenceNormalizer.normalize("1,000,000 and 2,5", locale: "en") == "1000000 and 2,5")
        #expect(ReferenceNormalizer.normalize("vingt-trois", locale: "fr") == "vingt trois")
    }
}

/// The normalisation of `../shared/tools/score-reference.py`: NFKC, lower case, `, ; : . ! ?` as
/// spaces except `.` and `,` between digits, a hyphen between two letters as a space, English number
/// words as digits (English thousands separators dropped).
enum ReferenceNormalizer {
    static let units = ["zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9]
    static let teens = ["ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                        "seventeen": 17, "eighteen": 18, "nineteen": 19]
    static let tens = ["twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90]
    static let scales = ["thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000]
    static let numberWords = Set(units.keys).union(teens.keys).union(tens.keys).union(scales.keys).union(["hundred"])

    static func normalize(_ input: String, locale: String) -> String {
        let s = Array(input.precomposedStringWithCompatibilityMapping.lowercased())
        var out = ""
        for (i, ch) in s.enumerated() {
            let prevDigit = i > 0 && s[i - 1].isNumber, nextDigit = i + 1 < s.count && s[i + 1].isNumber
            if (ch == "." || ch == ","), prevDigit, nextDigit { out.append(ch); continue }
            if ",;:.!?".contains(ch) { out.append(" "); continue }
            if ch == "-", i > 0, i + 1 < s.count, isWordLetter(s[i - 1]), isWordLetter(s[i + 1]) { out.append(" "); continue }
            out.append(ch)
        }
        var tokens = out.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        if locale.lowercased().hasPrefix("en") { tokens = numbersToDigits(tokens) }
        return tokens.joined(separator: " ")
    }

    /// A letter as Python's `[^\W\d_]`: a word character that is not a digit or underscore.
    static func isWordLetter(_ c: Character) -> Bool { c.isLetter }

    static func numbersToDigits(_ tokens: [String]) -> [String] {
        var exp: [String] = []
        for t in tokens {
            if t.contains("-") {
                let parts = t.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
                if parts.allSatisfy(numberWords.contains) { exp += parts; continue }
            }
            exp.append(t)
        }
        var out: [String] = []
        var i = 0
        while i < exp.count {
            var tok = exp[i]
            if numberWords.contains(tok), let (v, j) = parseNumber(exp, i), j > i {
                out.append(String(v))
                i = j
                continue
            }
            if tok.range(of: #"^\d{1,3}(,\d{3})+(\.\d+)?$"#, options: .regularExpression) != nil {
                tok = tok.replacingOccurrences(of: ",", with: "")
            }
            out.append(tok)
            i += 1
        }
        return out
    }

    static func below100(_ t: [String], _ i: Int) -> (Int, Int)? {
        guard i < t.count else { return nil }
        if let v = teens[t[i]] { return (v, i + 1) }
        if let v = tens[t[i]] {
            if i + 1 < t.count, let u = units[t[i + 1]], t[i + 1] != "zero" { return (v + u, i + 2) }
            return (v, i + 1)
        }
        if let v = units[t[i]] { return (v, i + 1) }
        return nil
    }

    static func below1000(_ t: [String], _ i: Int) -> (Int, Int)? {
        if i + 1 < t.count, let u = units[t[i]], t[i] != "zero", t[i + 1] == "hundred" {
            let v = u * 100, j = i + 2
            if let (w, k) = below100(t, j), w != 0 { return (v + w, k) }
            return (v, j)
        }
        return below100(t, i)
    }

    static func parseNumber(_ t: [String], _ i: Int) -> (Int, Int)? {
        guard var (v, j) = below1000(t, i) else { return nil }
        if v == 0 { return (0, j) }
        var total = 0
        var lastScale: Int? = nil
        while j < t.count, let scale = scales[t[j]], lastScale == nil || scale < lastScale! {
            total += v * scale
            lastScale = scale
            j += 1
            guard let (w, k) = below1000(t, j), w != 0 else { return (total, j) }
            (v, j) = (w, k)
        }
        return (total + v, j)
    }
}
