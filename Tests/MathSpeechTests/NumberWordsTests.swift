import Foundation
import Testing
@testable import MathSpeech

/// Number words through the one mechanism every locale shares (ICU spell-out, `numbers.txt` entries
/// and ending rules, variants, CLDR plural rules): English says exactly what the Swift English
/// composer said before (`Fixtures/en-number-words.tsv`), and the grammar other languages need works.
@Suite struct NumberWordsTests {
    /// The repository's `Locales/<tag>/<file>`.
    static func localeFile(_ tag: String, _ file: String) throws -> WordTable {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Locales/\(tag)/\(file)")
        return try WordTable(parsing: try String(contentsOf: url, encoding: .utf8), file: "\(tag)/\(file)")
    }

    static func english() throws -> Lexicon {
        Lexicon(chain: [try LocaleWords(tag: "en", settings: try localeFile("en", "locale.txt"), symbols: WordTable(),
                                        functions: WordTable(), units: WordTable(), numbers: try localeFile("en", "numbers.txt"))])
    }

    static func locale(_ tag: String, settings: String, numbers: String) throws -> Lexicon {
        Lexicon(chain: [try LocaleWords(tag: tag, settings: try WordTable(parsing: settings, file: "\(tag)/locale.txt"), symbols: WordTable(),
                                        functions: WordTable(), units: WordTable(),
                                        numbers: try WordTable(parsing: numbers, file: "\(tag)/numbers.txt"))])
    }

    @Test func englishKeepsItsWords() throws {
        let en = try Self.english()
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/en-number-words.tsv")
        var differences: [String] = []
        var rows = 0
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let n = Int(f[0])!
            let got = [en.numberWords(n, .cardinal), en.numberWords(n, .ordinal), en.numberWords(n, .ordinal, variants: ["plural"]),
                       en.numberWords(n, .denominator), en.numberWords(n, .denominator, variants: ["plural"]),
                       en.numberWords(n, .rootIndex)].map { $0 ?? "-" }
            if got != Array(f[1...]) { differences.append("\(n): \(got) ≠ \(Array(f[1...]))") }
            rows += 1
        }
        #expect(rows > 1200)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
        #expect(en.numberWords(-5, .cardinal) == "negative five")
        #expect(en.ordinalNumeral(2) == "2nd")
        #expect(en.ordinalNumeral(12) == "12th")
        #expect(en.ordinalNumeral(23) == "23rd")
        #expect(en.letterOrdinalAffixes()?.prefix == "" && en.letterOrdinalAffixes()?.suffix == "-th")
        #expect(en.numberWords(4, .power) == nil)
    }

    /// A language that writes its ordinal before the number or letter (Indonesian "ke-n", Chinese "第1").
    @Test func ordinalPrefixes() throws {
        let xx = try Self.locale("xx", settings: "number-words  table\n",
                                 numbers: "ordinal-prefix  ke-\nordinal-prefix.other  第\ncardinal.3  tiga\n")
        #expect(xx.letterOrdinalAffixes()?.prefix == "ke-" && xx.letterOrdinalAffixes()?.suffix == "")
        #expect(xx.ordinalNumeral(3) == "第3")
        let none = try Self.locale("yy", settings: "number-words  table\n", numbers: "cardinal.3  drei\n")
        #expect(none.letterOrdinalAffixes() == nil && none.ordinalNumeral(3) == nil)
    }

    @Test func icuSpellsOutAndSoftHyphensGo() throws {
        let de = try Self.locale("de", settings: "number-words  icu\n", numbers: "")
        #expect(de.numberWords(21, .cardinal) == "einundzwanzig")
        #expect(de.numberWords(1200, .cardinal) == "eintausendzweihundert")
        let table = try Self.locale("xx", settings: "number-words  table\n", numbers: "cardinal.3  drei\n")
        #expect(table.numberWords(3, .cardinal) == "drei")
        #expect(table.numberWords(21, .cardinal) == nil)
    }

    /// German ordinals and denominators from ending rules, with case variants (worked example of
    /// docs/authoring-a-locale.md).
    @Test func endingRulesAndVariants() throws {
        let numbers = """
        cardinal.1            eins | feminine: eine | masculine: ein
        ordinal.1             erste | dative: ersten
        ordinal.3             dritte | dative: dritten
        ordinal-ending.ig     *igste | dative: *igsten
        ordinal-ending.*      *te | dative: *ten
        denominator-ending.e  *el
        root.2                Quadrat
        """
        let de = try Self.locale("de", settings: "number-words  icu\n", numbers: numbers)
        #expect(de.numberWords(1, .cardinal, variants: ["feminine"]) == "eine")
        #expect(de.numberWords(1, .cardinal) == "eins")
        #expect(de.numberWords(4, .ordinal) == "vierte")
        #expect(de.numberWords(4, .ordinal, variants: ["dative"]) == "vierten")
        #expect(de.numberWords(20, .ordinal) == "zwanzigste")
        #expect(de.numberWords(3, .ordinal, variants: ["dative"]) == "dritten")
        #expect(de.numberWords(3, .denominator) == "drittel")
        #expect(de.numberWords(20, .denominator) == "zwanzigstel")
        #expect(de.numberWords(5, .rootIndex, variants: ["dative"]) == "fünften")
        #expect(de.numberWords(2, .rootIndex) == "Quadrat")
    }

    /// Russian: every word of a spelled-out cardinal takes the case variant of its ending rule.
    @Test func cardinalCaseForms() throws {
        let numbers = """
        cardinal-ending.ь    *ь | genitive: *и
        cardinal-ending.один *один | feminine: *одна
        cardinal-ending.два  *два | feminine: *две | genitive: *двух
        """
        let ru = try Self.locale("ru", settings: "number-words  icu\n", numbers: numbers)
        #expect(ru.numberWords(25, .cardinal) == "двадцать пять")
        #expect(ru.numberWords(25, .cardinal, variants: ["genitive"]) == "двадцати пяти")
        #expect(ru.numberWords(21, .cardinal, variants: ["feminine"]) == "двадцать одна")
        #expect(ru.numberWords(22, .cardinal, variants: ["genitive"]) == "двадцати двух")
    }

    @Test func pluralCategories() throws {
        let settings = """
        plural.one    v = 0 and i % 10 = 1 and i % 100 != 11          @integer 1, 21, 31
        plural.few    v = 0 and i % 10 = 2..4 and i % 100 != 12..14
        plural.many   v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14
        """
        let ru = try Self.locale("ru", settings: settings, numbers: "")
        let got = ["1", "2", "5", "11", "12", "21", "22", "25", "111", "1.5", "x"].map(ru.pluralCategory)
        #expect(got == ["one", "few", "many", "many", "many", "one", "few", "many", "many", "other", "other"])
        let en = try Self.english()
        #expect(["1", "1.0", "2", "0"].map(en.pluralCategory) == ["one", "other", "other", "other"])
        let fr = try Self.locale("fr", settings: "plural.one  i = 0,1\nplural.many  e = 0 and i != 0 and i % 1000000 = 0 and v = 0\n", numbers: "")
        #expect(["0", "1", "1.5", "2", "1000000"].map(fr.pluralCategory) == ["one", "one", "one", "other", "many"])
    }

    @Test func settingsAreChecked() throws {
        func problems(_ settings: String) -> [String] {
            do {
                _ = try LocaleWords(tag: "xx", settings: try WordTable(parsing: settings, file: "xx/locale.txt"), symbols: WordTable(),
                                    functions: WordTable(), units: WordTable(), numbers: WordTable())
                return []
            } catch { return error.errors.map(\.description) }
        }
        #expect(problems("number-words  icu\n").isEmpty)
        #expect(problems("number-words  english\n") == ["xx/locale.txt:1:1: error: unknown number-words 'english'; write 'icu', 'icu ICU-LOCALE-ID' or 'table'"])
        #expect(problems("ordinal-style  english\n").first?.contains("unknown setting 'ordinal-style'") == true)
        #expect(problems("plural.some  n = 1\n").first?.contains("unknown plural category 'some'") == true)
        #expect(problems("plural.one  n = \n").first?.contains("expected a number") == true)
    }

    @Test func variantCandidatesGoFromSpecificToGeneral() {
        #expect(variantCandidates([["feminine"], ["genitive"]]) == ["feminine.genitive", "feminine", "genitive"])
        #expect(variantCandidates([["few", "plural"]]) == ["few", "plural"])
        #expect(variantCandidates([["genitive"], ["few", "plural"]]) == ["genitive.few", "genitive.plural", "genitive", "few", "plural"])
    }
}
