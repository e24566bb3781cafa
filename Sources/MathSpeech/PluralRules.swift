import Foundation

/// A language's plural categories as CLDR defines them (Unicode Technical Standard #35, part 3,
/// "Language Plural Rules"): `zero`, `one`, `two`, `few`, `many`, `other`. A locale writes its rules in
/// `locale.txt`, one category a line, in CLDR's syntax (copied from CLDR's `plurals.xml`):
///
/// ```text
/// plural.one    v = 0 and i % 10 = 1 and i % 100 != 11
/// plural.few    v = 0 and i % 10 = 2..4 and i % 100 != 12..14
/// plural.many   v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14
/// ```
///
/// A number whose rule is not listed is `other`. Templates choose a word's form by a number's
/// category (`{@row@plural(=rows)}`, see Rules/README.md).
public struct PluralRules: Sendable, Hashable {
    /// The categories CLDR knows, in its order (`other` needs no rule).
    public static let categories = ["zero", "one", "two", "few", "many", "other"]

    /// One category's rule.
    struct Rule: Hashable, Sendable {
        let category: String
        let condition: Condition
    }

    /// The rules in CLDR's order of categories: the first that holds names the category.
    let rules: [Rule]

    /// No rules: every number is `other`.
    public init() { rules = [] }

    /// The rules of a locale's `plural.CATEGORY` settings.
    init(rules: [Rule]) {
        self.rules = rules.sorted { PluralRules.categories.firstIndex(of: $0.category)! < PluralRules.categories.firstIndex(of: $1.category)! }
    }

    /// Whether no category but `other` has a rule.
    public var isEmpty: Bool { rules.isEmpty }

    /// The categories this language uses (those with rules, then `other`).
    public var usedCategories: [String] { rules.map(\.category) + ["other"] }

    /// The category of a number written in digits (`2`, `1.50`, `-3`); `other` for text that is not one.
    public func category(of number: String) -> String {
        guard !rules.isEmpty, let operands = Operands(number) else { return "other" }
        for rule in rules where rule.condition.holds(operands) { return rule.category }
        return "other"
    }

    // MARK: Operands

    /// The operands of a number (UTS #35 "Plural Operand Meanings"): `n` its absolute value, `i` its
    /// integer digits, `v`/`w` the number of visible fraction digits with/without trailing zeros, `f`/`t`
    /// those digits as an integer with/without trailing zeros, `e`/`c` the compact exponent (0 here).
    struct Operands {
        let n: Double, i: Double, v: Double, w: Double, f: Double, t: Double, e: Double

        init?(_ text: String) {
            var s = Substring(text.trimmingCharacters(in: .whitespaces))
            if s.hasPrefix("-") || s.hasPrefix("+") || s.hasPrefix("−") { s = s.dropFirst() }
            let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let integerPart = parts.first, !integerPart.isEmpty, integerPart.allSatisfy(\.isASCIIDigit) else { return nil }
            let fraction = parts.count == 2 ? parts[1] : ""
            guard fraction.allSatisfy(\.isASCIIDigit), integerPart.count <= 15, fraction.count <= 15 else { return nil }
            let trimmed = fraction.reversed().drop { $0 == "0" }.reversed()
            i = Double(integerPart) ?? 0
            v = Double(fraction.count)
            w = Double(trimmed.count)
            f = Double(fraction) ?? 0
            t = Double(String(trimmed)) ?? 0
            n = Double(String(integerPart) + (fraction.isEmpty ? "" : "." + fraction)) ?? i
            e = 0
        }

        func value(_ operand: Character) -> Double {
            switch operand {
            case "n": n
            case "i": i
            case "v": v
            case "w": w
            case "f": f
            case "t": t
            default: e  // e, c
            }
        }
    }

    // MARK: Conditions

    /// `and_condition ('or' and_condition)*`.
    struct Condition: Hashable, Sendable {
        /// Alternatives, each a list of relations that must all hold.
        let alternatives: [[Relation]]

        func holds(_ o: Operands) -> Bool { alternatives.contains { $0.allSatisfy { $0.holds(o) } } }
    }

    /// `expr ('not')? ('in' | '=' | '!=' | 'within' | 'is') range_list`, with `expr = operand (('%' | 'mod') value)?`.
    struct Relation: Hashable, Sendable {
        let operand: Character
        let modulus: Double?
        let negated: Bool
        /// `within` allows any value in a range; `in`/`=`/`is` only integers.
        let within: Bool
        let ranges: [ClosedRange<Double>]

        func holds(_ o: Operands) -> Bool {
            var x = o.value(operand)
            if let modulus { x = fmod(x, modulus) }
            let isInteger = x.rounded(.towardZero) == x
            let inside = ranges.contains { $0.contains(x) } && (within || isInteger)
            return inside != negated
        }
    }

    /// Parses one rule (the samples after `@integer`/`@decimal` are ignored). The error says what is
    /// wrong and the 0-based character offset where.
    static func parseCondition(_ text: String) throws(PluralRuleError) -> Condition {
        let body = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var tokens: [(String, Int)] = []
        var k = 0
        let scalars = Array(body)
        while k < scalars.count {
            let c = scalars[k]
            if c == " " || c == "\t" { k += 1; continue }
            let start = k
            if c.isASCIIDigit {
                while k < scalars.count, scalars[k].isASCIIDigit || (scalars[k] == "." && k + 1 < scalars.count && scalars[k + 1].isASCIIDigit) { k += 1 }
            } else if c.isLetter {
                while k < scalars.count, scalars[k].isLetter { k += 1 }
            } else if c == "." && k + 1 < scalars.count && scalars[k + 1] == "." {
                k += 2
            } else if c == "!" && k + 1 < scalars.count && scalars[k + 1] == "=" {
                k += 2
            } else {
                k += 1
            }
            tokens.append((String(scalars[start..<k]), start))
        }
        var p = 0
        func peek() -> String? { p < tokens.count ? tokens[p].0 : nil }
        func fail(_ message: String) -> PluralRuleError { PluralRuleError(message: message, offset: p < tokens.count ? tokens[p].1 : body.count) }
        func number() throws(PluralRuleError) -> Double {
            guard let t = peek(), let v = Double(t) else { throw fail("expected a number, found '\(peek() ?? "the end")'") }
            p += 1
            return v
        }
        func relation() throws(PluralRuleError) -> Relation {
            guard let name = peek(), name.count == 1, "nivwftec".contains(name) else {
                throw fail("expected an operand (n, i, v, w, f, t, e), found '\(peek() ?? "the end")'")
            }
            p += 1
            var modulus: Double? = nil
            if peek() == "%" || peek() == "mod" { p += 1; modulus = try number() }
            var negated = false, within = false
            switch peek() {
            case "=": p += 1
            case "!=": p += 1; negated = true
            case "is":
                p += 1
                if peek() == "not" { p += 1; negated = true }
            case "not":
                p += 1; negated = true
                guard peek() == "in" || peek() == "within" else { throw fail("expected 'in' or 'within' after 'not'") }
                within = peek() == "within"; p += 1
            case "in": p += 1
            case "within": p += 1; within = true
            default: throw fail("expected =, !=, is, in or within, found '\(peek() ?? "the end")'")
            }
            var ranges: [ClosedRange<Double>] = []
            repeat {
                if peek() == "," { p += 1 }
                let low = try number()
                var high = low
                if peek() == ".." { p += 1; high = try number() }
                guard low <= high else { throw fail("a range must go upwards") }
                ranges.append(low...high)
            } while peek() == ","
            return Relation(operand: Character(name), modulus: modulus, negated: negated, within: within, ranges: ranges)
        }
        var alternatives: [[Relation]] = []
        var current: [Relation] = [try relation()]
        while let t = peek() {
            switch t {
            case "and": p += 1; current.append(try relation())
            case "or": p += 1; alternatives.append(current); current = [try relation()]
            default: throw fail("expected 'and' or 'or', found '\(t)'")
            }
        }
        alternatives.append(current)
        return Condition(alternatives: alternatives)
    }
}

/// A mistake in a plural rule, at a character offset of the rule.
struct PluralRuleError: Error {
    let message: String
    let offset: Int
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
