import MathAloud

/// What a text alternative is, judged on its own: nothing, a placeholder, source code, or words.
///
/// The judgement is on characters, not on a language: placeholders come from ``PlaceholderWords``
/// (data, several languages, extendable in the configuration); source code is recognised by TeX's and
/// MathML's own syntax.
public enum LabelText: Equatable, Sendable {
    /// Empty or only white space.
    case empty
    /// Says nothing about the math: a placeholder word, an equation number, a file name or a URL.
    case placeholder
    /// TeX source (a control word, `^{`, `x^2`, `a_i`, `$…$`).
    case tex
    /// MathML source (`<math`, `<mi>`…).
    case mathML
    /// Words (possibly with symbols that a screen reader says well, such as `a + b = c`).
    case words

    /// Classifies `value`. `imageSource` (an image's `src`) makes an alt equal to its file name a
    /// placeholder; `formula` (the formula's own source) keeps an alt that *is* the formula (`2`, `x`)
    /// from counting as an equation number.
    public static func classify(_ value: String, imageSource: String? = nil, formula: String? = nil,
                                placeholders: PlaceholderWords = .standard) -> LabelText {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .empty }
        if isMathML(trimmed) { return .mathML }
        if isFileNameOrURL(trimmed, imageSource: imageSource) { return .placeholder }
        if isTeX(trimmed) { return .tex }
        if let formula, trimmed == formula.trimmingCharacters(in: .whitespacesAndNewlines) { return .words }
        if placeholders.matches(trimmed) { return .placeholder }
        return .words
    }

    /// MathML markup: a `<math` tag or a presentation element tag.
    static func isMathML(_ s: String) -> Bool {
        let lower = s.lowercased()
        if lower.contains("<math") || lower.contains("<m:math") || lower.contains("<mml:") { return true }
        for tag in ["<mi>", "<mi ", "<mn>", "<mo>", "<mo ", "<mrow", "<mfrac", "<msup", "<msub", "<msqrt"] where lower.contains(tag) {
            return true
        }
        return false
    }

    /// TeX syntax a screen reader would spell out (TeXbook ch. 7: a control word is `\` + letters;
    /// ch. 17: `^` and `_` attach scripts).
    static func isTeX(_ s: String) -> Bool {
        let b = Array(s.utf8)
        if isProseWithMath(b) { return false }
        if b.count >= 2, b.first == UInt8(ascii: "$"), b.last == UInt8(ascii: "$") { return true }
        func isAlnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) }
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        for i in b.indices {
            let c = b[i]
            let next: UInt8? = i + 1 < b.count ? b[i + 1] : nil
            let prev: UInt8? = i > 0 ? b[i - 1] : nil
            switch c {
            case UInt8(ascii: "\\"):
                if let n = next, isLetter(n) || n == UInt8(ascii: "\\") || n == UInt8(ascii: "{") || n == UInt8(ascii: ",") { return true }
            case UInt8(ascii: "^"), UInt8(ascii: "_"):
                guard let n = next else { continue }
                if n == UInt8(ascii: "{") { return true }
                // x^2, a_i, )^n: a script on a base (a lone "_" between words, as in snake_case, is a
                // file name or identifier and is caught before; here it still reads as "underscore").
                // A word joined by "_" (snake_case) is a name, not a subscript: a subscript letter stands alone.
                if c == UInt8(ascii: "_"), isLetter(n), i + 2 < b.count, isLetter(b[i + 2]) { continue }
                if let p = prev, isAlnum(p) || p == UInt8(ascii: ")") || p == UInt8(ascii: "}") || p == UInt8(ascii: "]"),
                   isAlnum(n) || n == UInt8(ascii: "\\") || n == UInt8(ascii: "(") { return true }
            default: continue
            }
        }
        return false
    }

    /// Prose with inline math (`The shaded part is $\\mathit{g}$ wide`): at least three words of
    /// three letters or more outside `$…$` and not after a backslash. Such a label is a caption, not
    /// source code (its math may still be read raw; that is the caption's business).
    static func isProseWithMath(_ b: [UInt8]) -> Bool {
        var words = 0, run = 0, inMath = false, afterBackslash = false
        for c in b {
            let letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A
            if c == UInt8(ascii: "$") { inMath.toggle(); run = 0; continue }
            if letter {
                run += 1
            } else {
                if run >= 3 && !inMath && !afterBackslash { words += 1 }
                afterBackslash = c == UInt8(ascii: "\\")
                run = 0
            }
            if words >= 3 { return true }
        }
        return run >= 3 && !inMath && !afterBackslash && words + 1 >= 3
    }

    /// A file name (`eq12.png`), the image's own name without extension, or a URL.
    static func isFileNameOrURL(_ s: String, imageSource: String?) -> Bool {
        let lower = s.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("data:") { return true }
        if !lower.contains(" ") {
            for ext in [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".tif", ".tiff", ".eps", ".pdf"]
            where lower.hasSuffix(ext) && lower.count > ext.count { return true }
        }
        if let src = imageSource {
            let name = src.split(separator: "/").last.map(String.init) ?? src
            let stem = name.split(separator: ".").first.map(String.init) ?? name
            if !stem.isEmpty, lower == stem.lowercased() || lower == name.lowercased() { return true }
        }
        return false
    }
}

/// Words that, alone or together with numbers and punctuation, make a label a placeholder
/// ("Equation (3)", "inline formula", "image"). Data, in several languages; the configuration adds more.
public struct PlaceholderWords: Sendable, Hashable {
    /// The words, lowercased.
    public var words: Set<String>

    /// Creates a list.
    public init(words: Set<String>) { self.words = Set(words.map { $0.lowercased() }) }

    /// The built-in list (English, German, French, Spanish, Italian, Portuguese, Dutch words for
    /// "equation", "formula", "image", "figure", "math", "expression", and the names of the notations).
    public static let standard = PlaceholderWords(words: [
        "equation", "equations", "eq", "eqn", "eqs", "formula", "formulas", "formulae", "image", "img", "picture",
        "figure", "fig", "graphic", "graphics", "icon", "math", "maths", "mathematics", "mathematical", "expression",
        "symbol", "latex", "tex", "mathml", "inline", "display", "displayed", "block", "alt", "untitled",
        "placeholder", "null", "undefined", "none", "todo", "tbd", "alternative", "text", "available", "unavailable",
        "missing", "description", "provided",
        "gleichung", "formel", "bild", "abbildung", "équation", "equation", "formule", "mathématique",
        "ecuación", "fórmula", "imagen", "figura", "equazione", "immagine", "equação", "imagem", "vergelijking",
        "afbeelding", "wiskunde",
    ])

    /// Short words that may stand between placeholder words ("the equation", "image of a formula")
    /// without making a label of their own.
    public static let fillers: Set<String> = ["the", "a", "an", "of", "and", "no", "number", "nr", "de", "la", "le", "el",
                                              "der", "die", "das", "un", "une", "il", "lo", "not", "is", "here"]

    /// Whether every word of `label` is a placeholder word, a number or punctuation (and there is at
    /// least one such word or an equation number like `(3.2)`).
    public func matches(_ label: String) -> Bool {
        var sawWord = false
        var sawDigit = false
        for token in label.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            if token.allSatisfy(\.isNumber) { sawDigit = true; continue }
            // "eq12", "fig3a": a word with numbers glued on.
            let letters = String(token.prefix { $0.isLetter })
            let rest = token.dropFirst(letters.count)
            if rest.isEmpty, PlaceholderWords.fillers.contains(letters) { continue }
            guard words.contains(letters), rest.allSatisfy({ $0.isNumber || $0.isLetter && rest.count <= 1 }) else { return false }
            sawWord = true
        }
        if sawWord { return true }
        // Only an equation number: "(3)", "3.2", "[12]".
        return sawDigit && label.unicodeScalars.allSatisfy { "0123456789().[]- ".unicodeScalars.contains($0) }
            && (label.contains("(") || label.contains("[") || label.contains("."))
    }
}

/// Compares a label in words with the formula it stands for, by the symbols both name: the
/// formula's one-letter identifiers and its digits. A label that names a letter the formula does not
/// have, a number it does not have, or none of its letters, disagrees with it. (Letters and digits
/// are the same in every language; words such as "squared" are not compared.)
public struct LabelAgreement: Sendable {
    /// The formula's one-letter Latin identifiers, lowercased.
    public let letters: Set<String>
    /// The digit runs of the formula's numbers.
    public let numbers: Set<String>

    /// Collects the symbols of a tree.
    public init(tree: MathNode) {
        var letters = Set<String>(), numbers = Set<String>()
        var stack = [tree]
        while let node = stack.popLast() {
            switch node.kind {
            case .identifier(let name, _):
                let folded = LabelAgreement.latinLetter(name)
                if let folded { letters.insert(folded) }
            case .number(let digits, _):
                for run in digits.split(whereSeparator: { !$0.isNumber }) { numbers.insert(String(run)) }
            default: break
            }
            stack.append(contentsOf: node.children)
        }
        self.letters = letters
        self.numbers = numbers
    }

    /// A one-letter identifier as a lowercase Latin letter (mathematical alphanumerics such as 𝑥
    /// are folded by their decomposition), or nil.
    static func latinLetter(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        guard scalars.count == 1, let s = scalars.first else { return nil }
        let folded = String(s).decomposedStringWithCompatibilityMapping.lowercased()
        guard folded.unicodeScalars.count == 1, let f = folded.unicodeScalars.first, f.isASCII,
              f.properties.isAlphabetic else { return nil }
        return folded
    }

    /// Whether `label` (words) disagrees with the formula; the reason when it does.
    public func disagreement(with label: String) -> String? {
        var labelLetters = Set<String>(), labelNumbers = Set<String>()
        for token in label.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            if token.allSatisfy(\.isNumber) { labelNumbers.insert(String(token)); continue }
            if token.count == 1, let letter = LabelAgreement.latinLetter(String(token)) { labelLetters.insert(letter) }
        }
        // "a" and "i" are also words of prose; they count only when the formula has them.
        let foreign = labelLetters.subtracting(letters).subtracting(["a", "i"])
        if !foreign.isEmpty {
            return "the label names \(foreign.sorted().joined(separator: ", ")), which the formula does not contain"
        }
        let foreignNumbers = labelNumbers.filter { n in !numbers.contains(n) && !numbers.contains(where: { $0.contains(n) }) }
        if !foreignNumbers.isEmpty, !numbers.isEmpty || !letters.isEmpty {
            return "the label says \(foreignNumbers.sorted().joined(separator: ", ")), which the formula does not contain"
        }
        if !letters.isEmpty, labelLetters.isDisjoint(with: letters), labelNumbers.isDisjoint(with: numbers) {
            return "the label names none of the formula's symbols (\(letters.sorted().joined(separator: ", ")))"
        }
        return nil
    }
}
