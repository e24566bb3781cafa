import Foundation
import MathSyntax

/// The attributes of one element, consumed as the element is mapped: what is left over is kept
/// in ``MathNode/attributes``.
struct MathMLAttributes {
    private(set) var remaining: [String: String]
    private let element: String
    private let range: SourceRange?
    private(set) var diagnostics: [Diagnostic] = []

    /// The element's attributes less namespace declarations and what `trust` refuses (event handlers
    /// always; links, styles and URLs with schemes outside the allow-list unless trusted), each refusal
    /// reported as `mathml.untrusted-attribute`.
    init(_ attributes: [String: String], element: String, range: SourceRange?, trust: TrustPolicy) {
        var kept: [String: String] = [:]
        var refused: [Diagnostic] = []
        for (name, value) in attributes where name != "xmlns" && !name.hasPrefix("xmlns:") {
            if let reason = trust.refusal(attribute: name, value: value) {
                refused.append(.warning("mathml.untrusted-attribute", "<\(element)> \(reason); dropped", at: range))
            } else {
                kept[name] = value
            }
        }
        remaining = kept
        diagnostics = refused.sorted { $0.message < $1.message }
        self.element = element
        self.range = range
    }

    /// The raw value, without consuming it.
    func peek(_ name: String) -> String? { remaining[name] }

    /// Consumes and returns the raw value.
    mutating func take(_ name: String) -> String? { remaining.removeValue(forKey: name) }

    /// Consumes the attribute when `parse` accepts its value; otherwise keeps it (so it is
    /// written back unchanged) and reports `mathml.invalid-attribute` when `warn` is set.
    mutating func take<T>(_ name: String, warn: Bool = true, _ parse: (String) -> T?) -> T? {
        guard let raw = remaining[name] else { return nil }
        if let value = parse(raw) {
            remaining[name] = nil
            return value
        }
        if warn {
            diagnostics.append(.warning(
                "mathml.invalid-attribute",
                "<\(element)> attribute \(name)=\"\(raw)\" is not understood; kept as is",
                at: range))
        }
        return nil
    }

    /// Consumes a `true`/`false` attribute.
    mutating func bool(_ name: String) -> Bool? {
        take(name) { value -> Bool? in
            switch value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true": return true
            case "false": return false
            default: return nil
            }
        }
    }

    /// The attributes left over, nil when none.
    var leftover: [String: String]? { remaining.isEmpty ? nil : remaining }
}

/// Attribute names of the conventions described in ``MathMLWriter``.
enum MathMLConvention {
    /// `data-env` on `mtable`: the TeX environment (``TableProperties/environment``) when it is
    /// not `mtable`.
    static let environment = "data-env"
    /// `data-leftline`, `data-rightline` on `mtable` (`solid`, `dashed`): ``TableProperties/leftLine``,
    /// ``TableProperties/rightLine``, rules on the table's edges (MathML's `frame` draws all four sides).
    static let leftLine = "data-leftline"
    static let rightLine = "data-rightline"
    /// `data-numbered="true"` on `mtable`: ``TableProperties/numbered``.
    static let numbered = "data-numbered"
    /// `data-continued="true"` on `mfrac`: ``FractionProperties/continued`` (`\cfrac`).
    static let continued = "data-continued"
    /// `data-class` on `mo`: the TeX atom class when it differs from the operator dictionary's and
    /// `form` cannot say it.
    static let atomClass = MathNode.atomClassAttribute
    /// MathJax's attribute for the TeX class, understood on input.
    static let mathJaxClass = "data-mjx-texclass"
}

extension MathMLTreeBuilder {
    // MARK: - Element mapping

    /// The signs that make a number written in `mn` negative: hyphen-minus, minus, hyphen and non-breaking hyphen
    /// (`<mn>‑10</mn>`, as OpenStax's Spanish calculus sets one, textbook sweep 17), figure dash, en dash, small and
    /// fullwidth hyphen-minus.
    static let leadingMinusSigns: Set<UInt32> = [0x2D, 0x2212, 0x2010, 0x2011, 0x2012, 0x2013, 0xFE63, 0xFF0D]

    /// The operator typed before the rest of a token (`<mn>−5</mn>`, `<mn>∙5</mn>`, `<mtext>−log</mtext>`), as
    /// publishers' tools write signs: the minus sign for any of ``leadingMinusSigns``, or a mathematical
    /// symbol or middle dot as it is; nil when the token opens with neither.
    static func leadingOperator(_ text: String) -> (operator: String, rest: String)? {
        guard let first = text.unicodeScalars.first else { return nil }
        let rest = String(text.unicodeScalars.dropFirst())
        if leadingMinusSigns.contains(first.value) { return ("\u{2212}", rest) }
        if first.properties.generalCategory == .mathSymbol || first == "·" { return (String(first), rest) }
        return nil
    }

    /// The relation or bracket that a text holds alone, spaces around it aside (`" = "`, `"("`, `"|"`), or nil: a
    /// bracket or a bar, or a mathematical symbol the operator dictionary makes a relation. A factorial sign, an
    /// ellipsis, a prime and the double bar set as text alone are the operator too (`<mi>n</mi><mtext>!</mtext>`,
    /// `<mtext>⋯</mtext>`, `<mi>y</mi><mtext>‴</mtext>`, as OpenStax's calculus books set them: they were said as the
    /// character, "n !", "plus ⋯", "y ‴"). So are a comma and a currency sign (`<mn>131</mn><mtext>,</mtext><mn>072</mn>`,
    /// a number's digit groups, and `<mtext>$</mtext><mn>25</mn>`, as OpenStax's algebra books set 38 and 35 formulas: "131,
    /// 072" and "$ 25" before). So is an angle sign (`<mtext>∠</mtext><mi>A</mi>`, OpenStax's prealgebra, textbook sweep 11:
    /// said as the character). So are quotation marks, the signs of arithmetic and any other symbol (`✓`, `△`). A degree sign alone stays text: the analysis joins it to the scale after it (`°C`).
    static func operatorSetAsText(_ text: String) -> String? {
        var it = text.unicodeScalars.drop(while: { $0 == " " || $0 == "\u{A0}" }).makeIterator()
        guard let u = it.next() else { return nil }
        while let rest = it.next() { guard rest == " " || rest == "\u{A0}" else { return nil } }
        switch u {
        case "(", ")", "[", "]", "{", "}", "|", "\u{2016}", "!", "\u{2026}", "\u{22EF}", "\u{22EE}", "\u{22F1}",
             "\u{2032}", "\u{2033}", "\u{2034}", "\u{2057}", ",", "\u{2220}",
             // Quotation marks (`<mtext>“</mtext><mi>y</mi>`, as OpenStax's calculus books quote a formula's part: said as the
             // character before, "“ y"), as `<mo>“</mo>` is.
             "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}",
             // A tilde (`<msup><mi>P</mi><mo>′</mo></msup><mtext>~</mtext><mi>N</mi>`, statistics' "is distributed as", as OpenStax's
             // statistics books set it), as `<mo>~</mo>` is.
             "~":
            return String(u)
        // A sign of addition, subtraction, multiplication or division (`<mtext>−</mtext><mi>∞</mi>`), as `<mo>` makes it:
        // MathSpeak, which reads a text as written, said "− infinity" in 2,368 formulas of OpenStax's books (textbook sweep
        // 12). A hyphen alone is a word's (`<mi>x</mi><mtext>-</mtext><mtext>intercept</mtext>`), and an en dash stays
        // text, which the text rules read as a range or a minus by what it stands between, as in TeX's `\text{–}`.
        case "+", "\u{B1}", "\u{2213}", "\u{D7}", "\u{F7}", "\u{22C5}", "\u{B7}":
            return String(u)
        case "\u{2212}", "\u{FE63}", "\u{FF0D}":
            return "\u{2212}"
        default:
            // A currency sign (`<mtext>$</mtext><mn>25</mn>`): the operator, which the analysis reads before an amount.
            if u.properties.generalCategory == .currencySymbol { return String(u) }
            // Not ∣ (U+2223), which publishers set as text for an absolute value's bars (`∣ψ∣²`) as often as a relation.
            // Nor infinity and nabla, which are identifiers (``textToken(_:variant:range:attributes:)``).
            guard u != "\u{2223}", u != "\u{221E}", u != "\u{2207}" else { return nil }
            switch u.properties.generalCategory {
            // Any other mathematical symbol or other symbol alone (`<mtext>✓</mtext>` after a checked answer, `<mtext>△</mtext><mi>A</mi>`,
            // `<msub><mrow/><mtext>↘</mtext></msub>` marking a step, `<mtext>⦜</mtext>`, `<msub><mi>M</mi><mtext>☉</mtext></msub>`, as
            // OpenStax's prealgebra and algebra books and its astronomy set them, textbook sweep 16) is the symbol `<mo>` makes: it
            // was said as the character in every style. The degree sign stays text (above).
            case .mathSymbol, .otherSymbol where u != "\u{B0}": return String(u)
            default: return nil
            }
        }
    }

    /// The operator an identifier holds alone (`<mi>−</mi><mi>x</mi>`, as OpenStax's algebra books set 148 formulas' signs:
    /// "f of minus x" for f(−x), "equals minus y"), or nil: a minus sign or a dash (a hyphen and the full-width minus are the
    /// minus sign; an en dash stays one, a range between numbers), or a comma. Other symbols stay identifiers, as TeX's
    /// tree has them: `\bot` is `<mi>⊥</mi>`, `\$` is `<mi>$</mi>` (which the analysis reads before an amount), ∞ is one.
    static func operatorSetAsIdentifier(_ text: String) -> String? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let u = scalars.next(), scalars.next() == nil else { return nil }
        if leadingMinusSigns.contains(u.value) { return u == "\u{2013}" || u == "\u{2012}" ? String(u) : "\u{2212}" }
        // A comma or a full stop set as an identifier (`<mi>.</mi>` ending a sentence, as OpenStax's College Physics sets some) is
        // the punctuation `<mo>` makes: a full stop ending a formula is silent ("dot" before).
        return u == "," || u == "." ? String(u) : nil
    }

    /// Scripts whose base is a row that ends with a bar it does not open (`<msubsup><mrow><mi>F</mi><mo>(</mo><mi>x</mi><mo>)</mo>
    /// <mo>|</mo></mrow><mi>a</mi><mi>b</mi></msubsup>`, as OpenStax's calculus books set an evaluation bar) with that
    /// base made the group the bar closes, as TeX's `\left.F(x)\right|_a^b` is: F(x) evaluated from a to b (it was
    /// "F of x divides sub a, to the b-th power"). A row with another bar of its own (`|x|`) stays as it is.
    static func evaluationBarBase(_ parts: [MathNode]) -> [MathNode] {
        guard var row = parts.first, case .row = row.kind else { return parts }
        while row.children.count == 1, case .row = row.children[0].kind { row = row.children[0] }
        let children = row.children
        guard children.count >= 2, case .row = row.kind else { return parts }
        func isBar(_ n: MathNode) -> Bool { if case .operator("|", _) = n.kind { true } else { false } }
        guard isBar(children[children.count - 1]), !children.dropLast().contains(where: isBar) else { return parts }
        var out = parts
        out[0] = MathNode(.fenced(open: "", close: "|"), Array(children.dropLast()), range: parts[0].range, attributes: parts[0].attributes)
        return out
    }

    /// The operator `op` leaf.
    static func operatorLeaf(_ op: String, range: SourceRange?, attributes: [String: String]? = nil) -> MathNode {
        MathNode(.operator(op, OperatorDictionary.properties(for: op)), range: range, attributes: attributes)
    }

    /// A token split into the operator typed before it and what follows: a row of the two.
    static func operatorBefore(_ op: String, _ node: MathNode, range: SourceRange?) -> Item {
        .node(MathNode(.row, [operatorLeaf(op, range: range), node], range: range), marker: nil)
    }

    /// A minus typed before infinity in one token (`<mi>–∞</mi>`, `<mtext>−∞</mtext>`, as publishers' tools write a
    /// limit at negative infinity): the minus before the infinity identifier, as `<mo>−</mo><mi>∞</mi>` is ("dash
    /// infinity" and "right arrow −∞" before); nil for any other text.
    static func negativeInfinity(_ text: String, variant: MathVariant?, range: SourceRange?, attributes: [String: String]?) -> Item? {
        // (Infinity's last byte, 0x9E, first: most tokens are not split.)
        guard text.utf8.last == 0x9E, let (op, rest) = leadingOperator(text), op == "\u{2212}", rest == "\u{221E}" else { return nil }
        return operatorBefore(op, MathNode(.identifier(rest, variant: variant), range: range, attributes: attributes), range: range)
    }

    /// Letters or digits struck through with the long solidus overlay typed after them (`<mn>2̸</mn>`, `<mi>x̸</mi>`, as OpenStax's
    /// prealgebra and algebra books cancel a common factor in 22 formulas, textbook sweep 16): ``MathNode/struckOut(_:range:)`` of
    /// the token (`token` of the text without the overlay), as `\cancel{2}` makes it. It was said as written ("2̸"), or "x not", as
    /// a negated relation is. Nil for any other text.
    static func struckOut(_ text: String, range: SourceRange?, _ token: (String) -> MathNode) -> MathNode? {
        // U+0338 is CC B8 in UTF-8: told by the last byte before the scalars are read.
        guard text.utf8.last == 0xB8, text.unicodeScalars.last == "\u{338}" else { return nil }
        return MathNode.struckOut(token(String(text.unicodeScalars.dropLast())), range: range)
    }

    /// Whether `n` is a row the reader made of one token's parts (``operatorBefore(_:_:range:)``, ``numberAndSign(_:variant:range:attributes:)``,
    /// ``numberList(_:variant:range:attributes:)``): its children have the token's place, as an author's `mrow` of tokens do not.
    static func isSplitToken(_ n: MathNode) -> Bool {
        guard case .row = n.kind, n.range != nil else { return false }
        return n.children.allSatisfy { $0.range == n.range }
    }

    /// An amount and its unit set as one token (`<mtext>12.5 kJ</mtext>`, `<mn>3.0 mL</mn>`, as publishers'
    /// MathML writes a measurement): a row of the number and the text after the space, so the analysis reads
    /// the unit as after `<mn>12.5</mn>` (it was read as written, "12.5 kJ"); nil for any other text.
    static func amountAndUnit(_ text: String, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // A scale's degree typed after the digits without a space (`<mtext>37.0°C</mtext>`, `9.2°C.` with a sentence's stop): the
        // number and the unit (and the stop).
        // (The degree sign's last byte, 0xB0, first: Character search costs a grapheme break per character of every token.)
        // A space between the sign and the scale's letter (`<mn>2.00º C</mn>`, `<mtext>37° C</mtext>`, as OpenStax's College Physics and
        // chemistry set 40 temperatures, textbook sweep 16) is the same.
        if text.utf8.contains(0xB0), let degree = text.firstIndex(of: "\u{B0}"), degree != text.startIndex, String(text[..<degree]).isDecimalNumeral,
           case let scale = text[text.index(after: degree)...].drop(while: Self.isSpace), let letter = scale.unicodeScalars.first, "CFK".unicodeScalars.contains(letter),
           scale.count == 1 || (scale.count == 2 && (scale.last == "." || scale.last == "," || scale.last == ";")) {
            var parts = [MathNode(.number(String(text[..<degree]), variant: nil), range: range),
                         MathNode(.text("\u{B0}" + String(letter), variant: nil), range: range, attributes: attributes)]
            // The stop as text, as a sentence's punctuation set apart from a unit is (``MathMLTreeBuilder/punctuationSetApart(_:)``): a pause.
            if scale.count == 2, let stop = scale.last { parts.append(MathNode(.text(String(stop), variant: nil), range: range)) }
            return MathNode(.row, parts, range: range)
        }
        guard let space = text.firstIndex(where: Self.isSpace), String(text[..<space]).isDecimalNumeral else { return nil }
        let rest = text[space...].drop(while: Self.isSpace)
        guard let first = rest.unicodeScalars.first, first.properties.isAlphabetic || first == "°" else { return nil }
        // A unit's symbol: one token, short or not all small letters (`kJ`, `mL`, `g/mL`, `atm`); a word
        // (`<msup><mtext>1 unit</mtext><mn>2</mn></msup>`, a footnote's mark on a phrase) stays text.
        guard !rest.contains(where: Self.isSpace),
              rest.unicodeScalars.count <= 3 || rest.unicodeScalars.contains(where: { !("a" ... "z").contains($0) }) else { return nil }
        return MathNode(.row, [MathNode(.number(String(text[..<space]), variant: nil), range: range),
                               MathNode(.text(String(rest), variant: nil), range: range, attributes: attributes)], range: range)
    }

    /// Signs and numbers set as one text, without a letter (`<mtext>(−∞, ∞)</mtext>`, `<mtext>−∞.</mtext>`, `<mtext>.)</mtext>`,
    /// `<mtext>),</mtext>`, `<mtext>$900, $1,600</mtext>`, as OpenStax's books set an interval, a limit or a sentence's
    /// punctuation after a formula: 226 formulas of 90,541, textbook sweep 12, said as the characters): each sign as it reads
    /// set as text alone (a bracket, comma, quotation mark, ellipsis, currency, percent, degree or mathematical symbol the operator; a
    /// full stop, colon or other punctuation the text), a run of digits with its digit groups the number, ∞ the
    /// identifier, three full stops the ellipsis. Nil for a text of one sign, of one mark repeated (a line or a blank), with
    /// a letter, another character or a number of two points (`1.2.3`).
    static func signsSetAsText(_ text: String, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // A word's letters answer for most texts without a look at their scalars.
        if text.utf8.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) { return nil }
        let scalars = Array(text.unicodeScalars)
        // A point before digits first (`<mtext>1</mtext><mtext>.4 + 1</mtext>`) is a decimal's, begun before the text.
        if scalars.count >= 2, scalars[0] == ".", ("0" ... "9").contains(scalars[1]) { return nil }
        // A run of one mark (`–––`, `‾‾`) is a line or a blank (the analysis reads it so); three full stops are the ellipsis.
        let marks = scalars.filter { $0 != " " && $0 != "\u{A0}" }
        if let first = marks.first, first != ".", marks.allSatisfy({ $0 == first }) { return nil }
        var parts: [MathNode] = [], signs = 0, k = 0
        func isDigit(_ u: Unicode.Scalar) -> Bool { ("0" ... "9").contains(u) }
        while k < scalars.count {
            let u = scalars[k]
            if u == " " || u == "\u{A0}" { k += 1; continue }
            if isDigit(u) {
                var end = k + 1
                while end < scalars.count, isDigit(scalars[end])
                        || ((scalars[end] == "," || scalars[end] == ".") && end + 1 < scalars.count && isDigit(scalars[end + 1])) { end += 1 }
                let digits = String(String.UnicodeScalarView(scalars[k ..< end]))
                // Numbered sections (`1.2.3`) are no number.
                guard isGroupedNumeral(digits) else { return nil }
                parts.append(MathNode(.number(digits, variant: nil), range: range, attributes: attributes))
                k = end
                continue
            }
            signs += 1
            if u == ".", k + 2 < scalars.count, scalars[k + 1] == ".", scalars[k + 2] == "." {
                parts.append(operatorLeaf("\u{2026}", range: range))
                k += 3
                continue
            }
            let c = String(u)
            if Self.signsAfterNumbers.contains(u.value) {
                parts.append(operatorLeaf(c, range: range))
                k += 1
                continue
            }
            switch u.properties.generalCategory {
            case .mathSymbol where u == "\u{221E}":
                parts.append(MathNode(.identifier(c, variant: nil), range: range, attributes: attributes))
            case .mathSymbol, .currencySymbol, .dashPunctuation, .openPunctuation, .closePunctuation:
                parts.append(operatorLeaf(c, range: range))
            case .initialPunctuation, .finalPunctuation, .otherPunctuation:
                if let op = operatorSetAsText(c) { parts.append(operatorLeaf(op, range: range)) }
                else { parts.append(MathNode(.text(c, variant: nil), range: range, attributes: attributes)) }
            default:
                return nil
            }
            k += 1
        }
        guard signs > 0, marks.count >= 2 else { return nil }
        return parts.count == 1 ? parts[0] : MathNode(.row, parts, range: range)
    }

    /// Amounts with their units and the signs between them set as one text (`<mtext>= 0.852 m/s</mtext>`, `<mtext>–13 m/s.</mtext>`,
    /// `<mtext>40 kg + 50 kg = 90 kg</mtext>`, `<mtext>25.1 m/s; 9.90 m/s</mtext>`, as OpenStax's College Physics sets some 100
    /// formulas: said as written, "= 0.852 m/s"): each number the number (a minus typed before it the operator), each sign the
    /// operator, each word right after a number its unit, as text (which the analysis reads as after `<mn>`), a sentence's stop,
    /// comma or semicolon after a piece the punctuation. Nil unless every word follows a number (prose, `g at 0.5 m/s`, stays
    /// text) and no number follows a number, and there is a number and a sign or a second number.
    static func amountsSetAsText(_ text: String, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // A digit and a space (or a no-break space's last byte) answer for most texts without a look at their pieces.
        guard text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }), text.utf8.contains(where: { $0 == 0x20 || $0 == 0xA0 }) else { return nil }
        let pieces = text.split(whereSeparator: isSpace)
        guard pieces.count >= 2 else { return nil }
        var parts: [MathNode] = []
        var numbers = 0, signs = 0, afterNumber = false
        func isNumeral(_ s: String) -> Bool { s.isDecimalNumeral || isGroupedNumeral(s) }
        for (index, whole) in pieces.enumerated() {
            var piece = whole
            var stop: Character?
            if piece.count > 1, let last = piece.last, last == "," || last == ";" || last == "." { stop = last; piece = piece.dropLast() }
            let s = String(piece)
            if isNumeral(s) {
                // Numbers side by side (`1 1 4`, a reference's pages) are no amounts.
                if afterNumber { return nil }
                parts.append(MathNode(.number(s, variant: nil), range: range, attributes: attributes))
                numbers += 1
                afterNumber = true
            } else if let (op, rest) = leadingOperator(s), op == "\u{2212}" || op == "+" || op == "\u{B1}", isNumeral(rest) {
                // A sign typed before the digits: a minus, or a plus or plus-minus (`<mtext>+1.43 V</mtext>`, `+24.7 kJ`, as OpenStax's
                // chemistry sets a cell's potential and an enthalpy, textbook sweep 16: said as written, "+1.43 V").
                parts.append(operatorLeaf(op, range: range))
                parts.append(MathNode(.number(rest, variant: nil), range: range, attributes: attributes))
                numbers += 1
                signs += 1
                afterNumber = true
            } else if s.unicodeScalars.count == 1, let u = s.unicodeScalars.first,
                      spacedSigns.contains(u) || "-\u{22C5}\u{B7}\u{B1}".unicodeScalars.contains(u) {
                parts.append(operatorLeaf(u == "-" ? "\u{2212}" : String(u), range: range))
                signs += 1
                afterNumber = false
            } else if afterNumber, s == "x", stop == nil, index + 1 < pieces.count, isNumeral(String(pieces[index + 1])) {
                // A letter x between numbers is the multiplication sign typed (`3.00 x 10`).
                parts.append(operatorLeaf("\u{D7}", range: range))
                signs += 1
                afterNumber = false
            } else if afterNumber, let first = s.unicodeScalars.first, first.properties.isAlphabetic || first == "\u{B0}" || first == "/" {
                parts.append(MathNode(.text(s, variant: nil), range: range, attributes: attributes))
                afterNumber = false
            } else {
                return nil
            }
            if let stop {
                parts.append(MathNode(.text(String(stop), variant: nil), range: range))
                afterNumber = false
            }
        }
        // Two amounts (`25.1 m/s; 9.90 m/s`, `80.0 A, 4`) without a sign.
        guard numbers >= 1, signs >= 1 || numbers >= 2 else { return nil }
        MathMLTreeBuilder.dashesAsMinus(&parts)
        return MathNode(.row, parts, range: range)
    }

    /// A table row's label cell whose one item, in rows of one child or not, is a text the reader split into signs and
    /// numbers (``isSplitToken(_:)``), with that text again; any other cell as it is.
    static func labelRejoined(_ n: MathNode) -> MathNode {
        if isSplitToken(n), n.children.allSatisfy({ $0.children.isEmpty && $0.leafText != nil }) {
            let text = n.children.map { $0.leafText ?? "" }.joined()
            return MathNode(.text(text, variant: nil), range: n.range, attributes: n.children.lazy.compactMap(\.attributes).first)
        }
        guard n.children.count == 1 else { return n }
        switch n.kind {
        case .row, .tableCell: return MathNode(n.kind, [labelRejoined(n.children[0])], range: n.range, attributes: n.attributes)
        default: return n
        }
    }

    /// A currency sign and an amount in one token (`<mtext>$100</mtext>`, `<mn>$9.99</mn>`, `<mtext>−$25</mtext>`,
    /// `<mtext>50¢</mtext>`, as OpenStax's algebra books set the amounts of 826 formulas of 90,541, textbook sweep 12), with
    /// a sentence's period or comma typed after it (`<mtext>$999.</mtext>`): the sign and the number, as
    /// `<mo>$</mo><mn>100</mn>` is ("100 dollars"; the token was said as written, "$100"). A sign alone in a number
    /// token (`<mn>$</mn><mn>42</mn>`) is the sign, as `<mo>$</mo>` is. Nil for any other text.
    static func currencyAndAmount(_ text: String, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // Asked of every number and text: a currency sign is `$` or not ASCII, and most tokens are ASCII without `$`.
        guard text.utf8.contains(where: { $0 == 0x24 || $0 >= 0x80 }) else { return nil }
        func isSpace(_ u: Unicode.Scalar) -> Bool { u == " " || u == "\u{A0}" }
        var scalars = Substring(text).unicodeScalars
        while let f = scalars.first, isSpace(f) { scalars.removeFirst() }
        while let l = scalars.last, isSpace(l) { scalars.removeLast() }
        func isCurrency(_ u: Unicode.Scalar?) -> Bool { u?.properties.generalCategory == .currencySymbol }
        if scalars.count == 1, let sign = scalars.first, isCurrency(sign) { return operatorLeaf(String(sign), range: range, attributes: attributes) }
        if let stopped = withStopAfter(String(scalars), range: range, { currencyAndAmount($0, range: range, attributes: attributes) }) {
            return stopped
        }
        var before: [MathNode] = []
        if let first = scalars.first, leadingMinusSigns.contains(first.value) {
            before.append(operatorLeaf("\u{2212}", range: range))
            scalars.removeFirst()
        }
        let sign: Unicode.Scalar, signFirst: Bool
        if let first = scalars.first, isCurrency(first) {
            sign = first; signFirst = true; scalars.removeFirst()
        } else if let last = scalars.last, isCurrency(last), before.isEmpty {
            sign = last; signFirst = false; scalars.removeLast()
        } else {
            return nil
        }
        let amount = String(scalars)
        guard isGroupedNumeral(amount) else { return nil }
        let number = MathNode(.number(amount, variant: nil), range: range, attributes: attributes)
        let signLeaf = operatorLeaf(String(sign), range: range)
        return MathNode(.row, before + (signFirst ? [signLeaf, number] : [number, signLeaf]), range: range)
    }

    /// `text` without the spaces around it (Foundation's `.whitespaces`: spaces and tabs), told first on its first and last
    /// characters: most tokens have none, and Foundation's trimming costs some 6,700 instructions a token (four of them a text
    /// token cost 1.2 % of reading OpenStax's algebra: callgrind of `mathaloud speak --batch`, session 49).
    static func trimmedSpaces(_ text: String) -> String {
        func isSpace(_ u: Unicode.Scalar) -> Bool {
            u == " " || u == "\t" || (u.value >= 0xA0 && u.properties.generalCategory == .spaceSeparator)
        }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last, isSpace(first) || isSpace(last) else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The digits of a token that holds a decimal numeral or a point and digits (`800`, `1,200`, `.00`: the first or last
    /// piece of a decimal set in pieces), spaces around them trimmed; nil for any other text.
    static func numeralPiece(_ text: String) -> String? {
        let digits = trimmedSpaces(text)
        return digits.isDecimalNumeral || (digits.hasPrefix(".") && ("0" + digits).isDecimalNumeral) ? digits : nil
    }

    /// A token read with a sentence's full stop, comma or semicolon typed after it (`<mtext>$999.</mtext>`, `<mn>22°.</mn>`):
    /// `read` of the text before the stop, then the stop's operator; nil when the text ends in no stop or `read` reads nothing.
    static func withStopAfter(_ text: String, range: SourceRange?, _ read: (String) -> MathNode?) -> MathNode? {
        guard let stop = text.unicodeScalars.last, stop == "." || stop == "," || stop == ";",
              let body = read(String(text.unicodeScalars.dropLast())) else { return nil }
        return MathNode(.row, [body, operatorLeaf(String(stop), range: range)], range: range)
    }

    /// Digits with single separators between them and no more than one point (`1,000,000`, `42,888.18`, `9.99`): a number
    /// the analysis reads with its digit groups.
    static func isGroupedNumeral(_ s: String) -> Bool {
        var afterDigit = false, points = 0, digits = 0
        for u in s.utf8 {
            if u >= 0x30 && u <= 0x39 { afterDigit = true; digits += 1; continue }
            guard u == 0x2C || u == 0x2E, afterDigit else { return false }
            if u == 0x2E { points += 1 }
            afterDigit = false
        }
        return digits > 0 && afterDigit && points <= 1
    }

    /// A number and the sign after it in one token (`<mn>90°</mn>`, `<mn>45%</mn>`, `<mn>12′</mn>`, as OpenStax's
    /// algebra books set 398 angles of 22,539 formulas): the number and the sign, as `<mn>90</mn><mo>°</mo>` and TeX's
    /// `12'` are ("90 degrees"; the character was said as written); nil for any other text.
    static func numberAndSign(_ text: String, variant: MathVariant?, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // A sentence's stop typed after the sign (`<mn>75.93°.</mn>`, textbook sweep 12) is the operator after them.
        if let stopped = withStopAfter(text, range: range, { rest in
            rest.unicodeScalars.last.map { Self.signsAfterNumbers.contains($0.value) } == true
                ? numberAndSign(rest, variant: variant, range: range, attributes: attributes) : nil
        }) { return stopped }
        guard let last = text.unicodeScalars.last, Self.signsAfterNumbers.contains(last.value) else { return nil }
        let number = String(text.unicodeScalars.dropLast()).trimmingCharacters(in: .whitespaces)
        guard number.isDecimalNumeral else { return nil }
        let amount = MathNode(.number(number, variant: variant), range: range, attributes: attributes)
        // A prime is the number's superscript, as TeX's `12'` makes it; a degree, percent or per mille sign the operator
        // after it, as `<mn>35</mn><mo>°</mo>` is set (which the reference suites' MathML reads: "35 degrees").
        if (0x2032 ... 0x2034).contains(last.value) {
            return MathNode(.superscript, [amount, operatorLeaf(String(last), range: range)], range: range)
        }
        return MathNode(.row, [amount, operatorLeaf(String(last), range: range)], range: range)
    }

    /// A number and an ellipsis typed after it in one token (`<mtext>5…</mtext>` ending a list, `<mtext>0.271271271…</mtext>`,
    /// `<mn>3.14...</mn>`: 30 formulas of OpenStax's prealgebra and algebra books, textbook sweep 11): the number and the
    /// ellipsis, as `<mn>5</mn><mo>…</mo>` is (the text was said as written, the character with it); nil for any other text.
    static func numberAndEllipsis(_ text: String, variant: MathVariant?, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // Asked of every number and text: its last byte that is no space answers for nearly all (… ends in 0xA6, a point is
        // 0x2E; Foundation's trimming of every token cost 4.6 % of reading OpenStax's prealgebra MathML, callgrind, session 48).
        guard let end = text.utf8.last(where: { $0 != 0x20 }), end == 0xA6 || end == 0x2E else { return nil }
        let t = text.trimmingCharacters(in: .whitespaces)
        let body: Substring
        if t.hasSuffix("\u{2026}") { body = t.dropLast() } else if t.hasSuffix("...") { body = t.dropLast(3) } else { return nil }
        let number = body.trimmingCharacters(in: .whitespaces)
        guard number.isDecimalNumeral else { return nil }
        return MathNode(.row, [MathNode(.number(number, variant: variant), range: range, attributes: attributes),
                               operatorLeaf("\u{2026}", range: range)], range: range)
    }

    /// Degree, percent, per mille and the primes (U+00B0, U+0025, U+2030, U+2032 to U+2034).
    static let signsAfterNumbers: Set<UInt32> = [0xB0, 0x25, 0x2030, 0x2032, 0x2033, 0x2034]

    /// A list of numbers in one token (`<mn>1, 0</mn>`, a point's coordinates as OpenStax sets some), or a number and the
    /// list's comma typed after it (`<mn>5,</mn><mi>y</mi>`, `<msub><mi>x</mi><mn>1,</mn></msub>`, 62 formulas of OpenStax's
    /// algebra books): the numbers and their commas, as `<mn>1</mn><mo>,</mo><mn>0</mn>` is. A comma followed by a space
    /// or by nothing separates no digit groups: such tokens were read as the decimals "1.0" and "5.". Digit groups typed
    /// so (`<mn>1,</mn><mn>000</mn>`) are joined again (``MathMLTreeBuilder/decimalsJoined(_:)``). Nil unless every part is a number.
    static func numberList(_ text: String, variant: MathVariant?, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        let trailingComma = text.hasSuffix(",")
        guard trailingComma || text.contains(", ") else { return nil }
        // Split where a comma is followed by a space; a comma between digits stays the number's (`<mn>12,500,</mn>`).
        let parts = (trailingComma ? String(text.dropLast()) : text).components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.allSatisfy(\.isDecimalNumeral) else { return nil }
        var children: [MathNode] = []
        for (k, part) in parts.enumerated() {
            if k > 0 { children.append(operatorLeaf(",", range: range)) }
            children.append(MathNode(.number(part, variant: variant), range: range, attributes: attributes))
        }
        if trailingComma { children.append(operatorLeaf(",", range: range)) }
        return MathNode(.row, children, range: range)
    }

    /// What an `mtext` element of `text` is: the operator, identifier, number, amount and unit, or signs a publisher set as
    /// text (each case below), or the text. A row mends a token set in pieces by reading the pieces joined with this
    /// (``MathMLTreeBuilder/decimalsJoined(_:)``: `<mn>67</mn><mtext>.6 m/s</mtext>` is the text `67.6 m/s`).
    static func textToken(_ text: String, variant: MathVariant?, range: SourceRange?, attributes: [String: String]?) -> Item {
        func node(_ kind: MathNode.Kind) -> Item { .node(MathNode(kind, range: range, attributes: attributes), marker: nil) }
        // Only invisible characters (`<mtext>&#x200B;</mtext>`, a zero-width space a publisher's editor puts
        // in a script to size a sign): nothing, as an empty row is (`<msup><mo>∑</mo><mtext>&#x200B;</mtext></msup>`
        // is the sum, which takes its body; it was "the sum of superscript" and a character).
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .format }) {
            return node(.row)
        }
        // A relation or a bracket set as text alone (`<mtext> = </mtext>`, `<mtext>(</mtext>`, as publishers' MathML
        // writes some): the operator, as `<mo>` makes it, so the relation has its sides and the bracket its
        // partner (`<mi>P</mi><mtext>(</mtext><mi>B</mi><mtext>)</mtext>` is P of B). A word, or a sign with
        // other text (`<mtext>= sample mean</mtext>`), is read by ``signsBetweenWords(_:range:attributes:)``.
        if variant == nil, let op = Self.operatorSetAsText(text) {
            return .node(Self.operatorLeaf(op, range: range, attributes: attributes), marker: nil)
        }
        // Nabla set as text alone (`<mtext>∇</mtext><mi>f</mi>`, 51 formulas of OpenStax's calculus books: "∇ f") is
        // the symbol TeX's `\nabla` makes, an identifier, as `<mo>∇</mo>` is.
        // Infinity set as text alone (`<mtext>∞</mtext>`, 10 formulas of OpenStax's University Physics: "1 over ∞") is the
        // identifier, as `<mi>∞</mi>` is; three middle dots (`<mtext>···</mtext>`, the end of a series: "plus ···") the
        // midline ellipsis ⋯ (textbook sweep 13).
        // (The text without the spaces around it, for these tests and the number tests below: trimmed once.)
        let trimmed = Self.trimmedSpaces(text)
        if variant == nil, trimmed == "\u{2207}" || trimmed == "\u{221E}" {
            return node(.identifier(trimmed, variant: nil))
        }
        if variant == nil, trimmed == "\u{B7}\u{B7}\u{B7}" || trimmed == "\u{22C5}\u{22C5}\u{22C5}" {
            return .node(Self.operatorLeaf("\u{22EF}", range: range, attributes: attributes), marker: nil)
        }
        // A minus typed before a number (`<msup><mn>10</mn><mtext>−4</mtext></msup>`, as publishers' tools write
        // exponents) is the minus before the number, as in `<mn>−4</mn>`: it was "10 superscript −4". Before a
        // word (`<mtext>−log</mtext>`, as publishers write pH = −log[H⁺]) it is the minus before the word,
        // which the analysis reads as a function's name where it is one. A hyphen before a word (`<mi>y</mi><mtext>-axis</mtext>`,
        // `<mtext>-plane</mtext>`, as OpenStax's calculus books set a compound word: "y minus axis") is the word's hyphen, as
        // TeX's `\text{-axis}` is; before infinity, the minus (``negativeInfinity(_:variant:range:attributes:)``).
        if let negative = Self.negativeInfinity(text, variant: nil, range: range, attributes: attributes) { return negative }
        // A currency sign with its amount (`<mtext>$100</mtext>`): ``currencyAndAmount(_:range:attributes:)``.
        if variant == nil, let money = Self.currencyAndAmount(text, range: range, attributes: attributes) { return .node(money, marker: nil) }
        if let (op, rest) = Self.leadingOperator(text), op == "\u{2212}" {
            if rest.isDecimalNumeral {
                return Self.operatorBefore(op, MathNode(.number(rest, variant: nil), range: range, attributes: attributes), range: range)
            }
            // A letter alone after the sign is a variable when it is italic or the sign is the minus sign itself (`<mtext
            // mathvariant="italic">−y</mtext>`, as OpenStax's prealgebra sets the opposite of a variable: "italic −y" in MathSpeak).
            let scalars = rest.unicodeScalars
            if scalars.count >= 2 || (scalars.count == 1 && (variant == .italic || text.unicodeScalars.first == "\u{2212}")),
               text.unicodeScalars.first != "-", scalars.allSatisfy({ $0.properties.isAlphabetic }) {
                return Self.operatorBefore(op, MathNode(.text(rest, variant: variant), range: range, attributes: attributes), range: range)
            }
        }
        if variant == nil, let amount = Self.amountAndUnit(trimmed, range: range, attributes: attributes) { return .node(amount, marker: nil) }
        if variant == nil, let run = Self.numberAndEllipsis(text, variant: nil, range: range, attributes: attributes) { return .node(run, marker: nil) }
        // An angle with its degree sign set as text (`<mtext>180°</mtext>`, 35 formulas of OpenStax's prealgebra, textbook
        // sweep 11) is the number and the sign, as in `<mn>180°</mn>`.
        if variant == nil, let signed = Self.numberAndSign(trimmed, variant: nil, range: range, attributes: attributes) {
            return .node(signed, marker: nil)
        }
        // Digits set as text (`<msup><mi>x</mi><mtext>10</mtext></msup>`, `<mtext>1</mtext><mo>.</mo><mtext>981</mtext>`, as
        // OpenStax's algebra books set the numbers of 267 formulas of 22,539) are the number, as `<mn>` makes it: the
        // power was "x superscript 10" and the decimal "1 dot 981".
        // So are a point and digits (`<mtext>0</mtext><mtext>.01</mtext>`, which the row joins: 0.01).
        if variant == nil, let digits = Self.numeralPiece(trimmed) { return node(.number(digits, variant: nil)) }
        if variant == nil, let signs = Self.signsSetAsText(text, range: range, attributes: attributes) { return .node(signs, marker: nil) }
        if variant == nil, let amounts = Self.amountsSetAsText(trimmed, range: range, attributes: attributes) { return .node(amounts, marker: nil) }
        if let letters = Self.italicLetters(text, variant: variant, range: range, attributes: attributes) { return .node(letters, marker: nil) }
        if variant == nil, let formula = Self.signsBetweenWords(trimmed, range: range, attributes: attributes) { return .node(formula, marker: nil) }
        return node(.text(text, variant: variant))
    }

    /// A space of any width between a text's pieces (`S\u{A0}+\u{2009}\u{A0}(M`, as the economics book sets some).
    static func isSpace(_ u: Unicode.Scalar) -> Bool { u == " " || u.properties.generalCategory == .spaceSeparator }
    static func isSpace(_ c: Character) -> Bool { c.unicodeScalars.allSatisfy { isSpace($0) } }

    /// The signs that ``signsBetweenWords(_:range:attributes:)`` sets apart with a space on each side.
    static let spacedSigns: Set<Unicode.Scalar> = ["=", "+", "\u{2212}", "\u{2013}", "\u{D7}", "\u{F7}", "\u{2248}", "\u{2264}", "\u{2265}", "<", ">", "\u{2260}"]

    /// A formula of named quantities set as one text (`<mtext>MPC + MPS = 1</mtext>`, `<mtext>Qd = 16 – 2P</mtext>`, `<mtext>Nominal GDP =
    /// Price Level × Real GDP</mtext>`, as OpenStax's Principles of Economics sets most of its formulas: the signs were said as
    /// characters): each sign with a space on each side is the operator, and the words between them each a text read as a text
    /// alone is (a number the number, brackets at its edges set apart by the row). Only a text with an equals sign so set, or two
    /// other signs: a dash between words in prose (`a – b`) stays text.
    static func signsBetweenWords(_ text: String, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        // A sign between spaces (or no-break spaces): most texts have no space, or no such sign (told by its byte, or the first
        // byte of the other signs' encodings, 0xC3 and 0xE2, before the text's scalars are read).
        guard text.utf8.contains(where: { $0 == 0x20 || $0 == 0xA0 }),
              text.utf8.contains(where: { $0 == 0x3D || $0 == 0x2B || $0 == 0x3C || $0 == 0x3E || $0 == 0xC3 || $0 == 0xE2 }) else { return nil }
        let scalars = Array(text.unicodeScalars)
        // A point before digits first (`<mn>26</mn><mtext>.2 – 27</mtext>`) is a decimal's, begun before the text: the row joins it.
        if scalars.count >= 2, scalars[0] == ".", ("0" ... "9").contains(scalars[1]) { return nil }
        func isSpace(_ u: Unicode.Scalar) -> Bool { Self.isSpace(u) }
        var cuts: [Int] = []
        var relation = false
        // A sign at an edge of the text counts when a space sets it apart from the words (`S + ` before `<mo>(</mo>`).
        for k in scalars.indices where spacedSigns.contains(scalars[k]) && (k == 0 || isSpace(scalars[k - 1]))
            && (k == scalars.count - 1 || isSpace(scalars[k + 1])) && scalars.count > 1 {
            cuts.append(k)
            if scalars[k] == "=" { relation = true }
        }
        // One sign between numbers and short names (`60 – P`, `2 + 5P`, a cell after a cell's equals sign) is the operator too, not
        // one between words or marks (`a word – another`, `b—c – d`): every other piece a number, one or two letters, or a number
        // and a letter.
        func shortNames() -> Bool {
            text.split(whereSeparator: Self.isSpace).allSatisfy { whole in
                if whole.count == 1, let u = whole.unicodeScalars.first, spacedSigns.contains(u) { return true }
                // Brackets at the piece's edges aside (`(1 + r)`).
                let piece = whole.drop { "([".contains($0) }.reversed().drop { ")]".contains($0) }.reversed()
                let letters = piece.reversed().prefix { $0.isLetter }
                guard letters.count <= 2, letters.allSatisfy({ $0.isASCII }) || letters.count == 1 else { return false }
                var digits = String(piece.dropLast(letters.count))
                // An amount with its currency sign (`$220`) or a minus typed before it (`–200`, `–T`).
                if let u = digits.unicodeScalars.first, u.properties.generalCategory == .currencySymbol || leadingMinusSigns.contains(u.value) {
                    digits.removeFirst()
                }
                return digits.isEmpty ? !letters.isEmpty : (letters.count <= 1 && digits.isDecimalNumeral)
            }
        }
        guard relation || cuts.count >= 2 || (cuts.count == 1 && shortNames()) else { return nil }
        var parts: [MathNode] = []
        var start = 0
        // Words between two signs: brackets typed at their edges or before a factor (`(T`, `G)`, `0.85(Y`) set apart, a number
        // typed before one letter (`2P`, `0.85Y`) the number and the letter, a coefficient and its variable; the rest read as a
        // text alone is.
        func words(_ t: String) {
            let w = t.trimmingCharacters(in: .whitespaces)
            guard !w.isEmpty else { return }
            if let last = w.unicodeScalars.last, last.properties.isAlphabetic,
               case let digits = String(w.unicodeScalars.dropLast()), digits.isDecimalNumeral {
                parts.append(MathNode(.number(digits, variant: nil), range: range, attributes: attributes))
                parts.append(MathNode(.identifier(String(last), variant: nil), range: range, attributes: attributes))
                return
            }
            // Names divided without a number (`F/m`, `Δv/Δt`): the quotient of the names, as `F/m` set in tokens is (a quotient of
            // unit symbols alone would be read as the unit, "farads per meter").
            if w.unicodeScalars.contains("/"), !w.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                let names = w.split(separator: "/", omittingEmptySubsequences: false)
                if names.count == 2, !names[0].isEmpty, !names[1].isEmpty {
                    words(String(names[0]))
                    parts.append(operatorLeaf("/", range: range))
                    words(String(names[1]))
                    return
                }
            }
            if case let .node(n, nil) = textToken(w, variant: nil, range: range, attributes: attributes) {
                if case .row = n.kind, isSplitToken(n) { parts += n.children } else { parts.append(n) }
            }
        }
        // Where the next closing parenthesis is, from each place (one pass from the end: a text of many opening parentheses is
        // read in linear time).
        var nextClose = [Int](repeating: scalars.count, count: scalars.count + 1)
        for k in scalars.indices.reversed() { nextClose[k] = scalars[k] == ")" ? k : nextClose[k + 1] }
        // How many spaces, and how many digits or signs, come before each place: what a pair of brackets holds, in one look.
        var spacesBefore = [Int](repeating: 0, count: scalars.count + 1), marksBefore = spacesBefore
        for (k, u) in scalars.enumerated() {
            spacesBefore[k + 1] = spacesBefore[k] + (isSpace(u) ? 1 : 0)
            marksBefore[k + 1] = marksBefore[k] + (("0" ... "9").contains(u) || spacedSigns.contains(u) ? 1 : 0)
        }
        // A remark in parentheses (`Price Level (or GDP Deflator)`: words with a space and no digit between the brackets) stays
        // in the words' text; other brackets are set apart.
        func piece(_ lower: Int, _ upper: Int) {
            var from = lower, k = lower
            while k < upper {
                let u = scalars[k]
                if u == "(", case let close = nextClose[k], close < upper,
                   spacesBefore[close] > spacesBefore[k + 1], marksBefore[close] == marksBefore[k + 1] {
                    k = close + 1
                    continue
                }
                if "()[]".unicodeScalars.contains(u) {
                    words(String(String.UnicodeScalarView(scalars[from ..< k])))
                    parts.append(operatorLeaf(String(u), range: range))
                    from = k + 1
                }
                k += 1
            }
            words(String(String.UnicodeScalarView(scalars[from ..< upper])))
        }
        // A dash set apart by spaces in such a formula is the minus, between numbers too (`5 – 0.25 × Q`): a range is set
        // without spaces (`10–20`).
        for k in cuts {
            piece(start, k)
            parts.append(operatorLeaf(scalars[k] == "\u{2013}" ? "\u{2212}" : String(scalars[k]), range: range))
            start = k + 1
        }
        piece(start, scalars.count)
        MathMLTreeBuilder.dashesAsMinus(&parts)
        return MathNode(.row, parts, range: range)
    }

    /// Letters set in italic with MathML's `fontstyle` (`<mtext fontstyle="italic">mv</mtext>`, `<mi fontstyle="italic">qQ</mi>`, or inside
    /// `<mstyle fontstyle="italic">`, as OpenStax's College Physics sets the products of its variables in 1,266 formulas: mg, mv, hf,
    /// ρv, kT): each letter a variable, as italic letters set one by one are (`mg` was said as written, `3 kT` was 3 kiloteslas). Two to
    /// five letters and nothing else; nil otherwise, or when the token's own `mathvariant` chose another style.
    static func italicLetters(_ text: String, variant: MathVariant?, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        guard variant == nil || variant == .italic, let style = attributes?["fontstyle"],
              style.trimmingCharacters(in: .whitespaces) == "italic" else { return nil }
        return lettersSplit(text, range: range, attributes: attributes.map { $0.filter { $0.key != "fontstyle" } })
    }

    /// ``italicLetters(_:variant:range:attributes:)`` of a token already known to be italic (its own attribute or its style's).
    static func lettersSplit(_ text: String, range: SourceRange?, attributes: [String: String]?) -> MathNode? {
        let scalars = text.unicodeScalars
        guard (2 ... 5).contains(scalars.count), scalars.allSatisfy({ $0.properties.isAlphabetic && !$0.properties.isDiacritic
                                                                      && $0.properties.generalCategory != .nonspacingMark }) else { return nil }
        let rest = attributes.flatMap { $0.isEmpty ? nil : $0 }
        return MathNode(.row, scalars.map { MathNode(.identifier(String($0), variant: nil), range: range, attributes: rest) }, range: range)
    }

    /// The tokens inside `<mstyle fontstyle="italic">` that set no style of their own, letters split (``italicLetters(_:variant:range:attributes:)``).
    static func italicStyled(_ node: MathNode) -> MathNode {
        switch node.kind {
        case .identifier(let t, nil), .text(let t, nil):
            return lettersSplit(t, range: node.range, attributes: node.attributes) ?? node
        case .identifier, .number, .text, .operator, .space, .none:
            return node
        default:
            if node.children.isEmpty { return node }
            return node.withChildren(node.children.map(italicStyled))
        }
    }

    /// Scripts on a token the reader split into pieces are its last piece's, as the script is set after it: an amount and its unit
    /// (`<msup><mtext>9.80 m/s</mtext><mn>2</mn></msup>`, OpenStax's College Physics' accelerations: 9.80 m/s², "9.80 meters per
    /// second, squared" before), italic letters (``italicLetters(_:variant:range:attributes:)``: `mv²` is m times v squared), a sign
    /// and a name (`<msub><mtext>= log</mtext><mn>10</mn></msub>`, `<msub><mtext>+ P</mtext><mn>2</mn></msub>`), a minus typed before a
    /// name (`<msub><mi>−log</mi><mi>b</mi></msub>`, ``operatorBefore(_:_:range:)``: the minus before the scripted base, as `−\log_b`
    /// is; the scripts were the row's, "negative log sub b, times x"). Not a last piece that is an operator (a closing bracket: the
    /// script is the group's).
    static func scriptsOnLastPiece(_ item: Item) -> Item {
        guard case let .node(n, marker) = item, marker == nil, let base = n.children.first, Self.isSplitToken(base), base.children.count >= 2,
              base.children.dropLast().allSatisfy({ $0.children.isEmpty }), let last = base.children.last else { return item }
        if case .operator = last.kind { return item }
        var children = Array(n.children)
        children[0] = last
        let scripted = MathNode(n.kind, children, range: n.range, attributes: n.attributes)
        return .node(MathNode(.row, Array(base.children.dropLast()) + [scripted], range: n.range), marker: nil)
    }

    /// Maps a closed element to what its parent receives.
    func build(_ frame: Frame) -> Item? {
        var attrs = MathMLAttributes(frame.attributes, element: frame.name, range: frame.startTagRange, trust: options.trust)
        defer { diagnostics += attrs.diagnostics }
        let range = frame.range

        func node(_ kind: MathNode.Kind, _ children: [MathNode] = []) -> Item {
            .node(MathNode(kind, children, range: range, attributes: attrs.leftover), marker: nil)
        }

        switch frame.name {
        case "mi":
            var text = Self.collapse(frame.text, preserve: frame.preserveSpace)
            // MathJax's own alphabets (`-tex-calligraphic`) are kept as attributes, without a warning.
            let mathJaxFont = attrs.remaining["mathvariant"]?.hasPrefix("-tex-") == true
            var variant = attrs.take("mathvariant", warn: !mathJaxFont) { MathVariant(mathML: $0) }
            // Styled letters are a letter in an alphabet, as the TeX front end reads them (`𝐱` is
            // `<mi mathvariant="bold">x</mi>`); the characters decide over the attribute. An italic
            // letter that is italic by default is the plain letter (`𝑥` is `x`; `𝛤` stays italic).
            if let plain = UnicodeMath.plainLetters(text) {
                text = plain.text
                if let v = plain.variant {
                    let sole = text.unicodeScalars.count == 1 ? text.unicodeScalars.first : nil
                    variant = v == .italic && sole.map(UnicodeMath.isItalicByDefault) == true ? nil : v
                }
            }
            if let struck = Self.struckOut(text, range: range, { MathNode(.identifier($0, variant: variant), range: range, attributes: attrs.leftover) }) {
                return .node(struck, marker: nil)
            }
            // A letter with a mathematical accent in one character (`<mi>ŷ</mi>`, `<mi>x̄</mi>`, as publishers write a
            // prediction or a mean) is the letter under the accent, as `\hat{y}` is: "y hat", not the character.
            if let (letter, accent) = UnicodeMath.letterAndAccent(text) {
                let base = MathNode(.identifier(letter, variant: variant), range: range, attributes: attrs.leftover)
                return .node(MathNode(.over(UnderOverProperties(accent: true)), [base, Self.operatorLeaf(accent, range: range)], range: range), marker: nil)
            }
            if variant == nil, let op = Self.operatorSetAsIdentifier(text) {
                return .node(Self.operatorLeaf(op, range: range, attributes: attrs.leftover), marker: nil)
            }
            // Digits set as an upright identifier (`<mi mathvariant="normal">300</mi><mi mathvariant="normal">.00</mi>`, as OpenStax's
            // Contemporary Mathematics sets its amounts) are the number, as digits set as text are (the row joins the pieces: 300.00;
            // it was "300 dot 0 0"). A digit in an identifier of the default style is an italic digit (MathSpeak: "italic 3").
            if variant == .normal, let digits = Self.numeralPiece(text) { return node(.number(digits, variant: nil)) }
            if let negative = Self.negativeInfinity(text, variant: variant, range: range, attributes: attrs.leftover) { return negative }
            // A minus typed before letters in one identifier (`<mi>−x</mi>`, `<mi>−log</mi>`, as OpenStax's algebra books set a
            // dozen): the minus before the identifier, as `<mo>−</mo><mi>x</mi>` is ("f of minus x", "minus l o g" before).
            if let (op, rest) = Self.leadingOperator(text), op == "\u{2212}", !rest.isEmpty,
               rest.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) {
                return Self.operatorBefore(op, MathNode(.identifier(rest, variant: variant), range: range, attributes: attrs.leftover), range: range)
            }
            // A letter typed with a sentence's full stop (`<mi>y.</mi>`, `<mi>θ.</mi>`, as OpenStax's College Physics ends some formulas)
            // is the letter and the stop, as `<mi>y</mi><mo>.</mo>` is ("y dot" before).
            if text.unicodeScalars.count == 2, text.unicodeScalars.last == ".", let letter = text.unicodeScalars.first, letter.properties.isAlphabetic,
               let stopped = Self.withStopAfter(text, range: range, { MathNode(.identifier($0, variant: variant), range: range, attributes: attrs.leftover) }) {
                return .node(stopped, marker: nil)
            }
            // A multi-letter mi is upright by default (a function name, nil); an explicit `normal` is kept:
            // a word set in roman, as TeX's `\mathrm{kg}` (an Ord to the typesetter, not an operator name).
            if let letters = Self.italicLetters(text, variant: variant, range: range, attributes: attrs.leftover) { return .node(letters, marker: nil) }
            return node(.identifier(text, variant: variant))
        case "mn":
            // Upright digits are the default; styled digits (`𝟏𝟐`) are digits in an alphabet.
            var text = Self.collapse(frame.text, preserve: frame.preserveSpace)
            var variant = attrs.take("mathvariant") { MathVariant(mathML: $0) }
            if let plain = UnicodeMath.plainLetters(text) {
                text = plain.text
                if let v = plain.variant { variant = v }
            }
            if variant == .normal { variant = nil }
            // An operator typed alone as a number (`<mn>/</mn>`, `<msup><mi>e</mi><mn>+</mn></msup>`, as OpenStax's Polish physics
            // sets some, textbook sweep 17) is that operator, as `<mo>` makes it: it was said as written ("e raised to the + power").
            // A comma stays a number here: between digits it is a decimal comma, elsewhere a row makes it the operator
            // (``decimalsJoined(_:)``).
            // (Told on its first byte first: nearly every number opens with a digit.)
            if let b = text.utf8.first, b < 0x30 || b > 0x39, text.utf8.count <= 3, text.unicodeScalars.count == 1,
               let u = text.unicodeScalars.first, "+-−±∓;/∕×·*:=".unicodeScalars.contains(u) {
                return .node(Self.operatorLeaf(text, range: range, attributes: attrs.leftover), marker: nil)
            }
            if let struck = Self.struckOut(text, range: range, { MathNode(.number($0, variant: variant), range: range, attributes: attrs.leftover) }) {
                return .node(struck, marker: nil)
            }
            if variant == nil, let amount = Self.amountAndUnit(text, range: range, attributes: attrs.leftover) { return .node(amount, marker: nil) }
            if variant == nil, let money = Self.currencyAndAmount(text, range: range, attributes: attrs.leftover) { return .node(money, marker: nil) }
            if let run = Self.numberAndEllipsis(text, variant: variant, range: range, attributes: attrs.leftover) { return .node(run, marker: nil) }
            // Negative infinity typed as a number (`<mn>−∞</mn>`, `<mn>-∞</mn>`, an interval's end as OpenStax's algebra books set 17
            // formulas, textbook sweep 16: said as written, "−∞") is the minus before infinity, as in a text.
            if let negative = Self.negativeInfinity(text, variant: variant, range: range, attributes: attrs.leftover) { return negative }
            // A sign written inside the number (`<mn>−5</mn>`, `<mn>-0.2</mn>`, `<mn>–7</mn>` with a hyphen,
            // a minus or a dash, as publishers' tools write negative numbers and exponents) is the minus
            // before the number, as `<mo>−</mo><mn>5</mn>` is: it was "10 raised to the −5 power". Another
            // operator typed before the digits (`<mn>∙5</mn>`, a hydrate's dot and its count; `<mn>×10</mn>`) is
            // that operator: it was said as written, the character with the digits.
            if let (op, rest) = Self.leadingOperator(text) {
                let digits = op == "\u{2212}" ? rest.trimmingCharacters(in: .whitespaces) : rest
                let isNumber = op == "\u{2212}"
                    ? digits.unicodeScalars.first.map { ("0" ... "9").contains($0) || $0 == "." || $0 == "," } == true
                    : digits.isDecimalNumeral
                if op == "\u{2212}", let signed = Self.numberAndSign(digits, variant: variant, range: range, attributes: attrs.leftover) {
                    return Self.operatorBefore(op, signed, range: range)
                }
                if isNumber {
                    return Self.operatorBefore(op, MathNode(.number(digits, variant: variant), range: range, attributes: attrs.leftover), range: range)
                }
            }
            if let signed = Self.numberAndSign(text, variant: variant, range: range, attributes: attrs.leftover) { return .node(signed, marker: nil) }
            if let list = Self.numberList(text, variant: variant, range: range, attributes: attrs.leftover) { return .node(list, marker: nil) }
            return node(.number(text, variant: variant))
        case "mo":
            return buildOperator(frame, &attrs)
        case "mtext":
            let variant = attrs.take("mathvariant") { MathVariant(mathML: $0) }
            return Self.textToken(Self.collapse(frame.text, preserve: frame.preserveSpace), variant: variant, range: range, attributes: attrs.leftover)
        case "ms":
            // A string literal: shown between its quotes (default `"`).
            // A string of glyphs alone is the images' names, which are not quoted characters.
            let open = attrs.take("lquote") ?? "\"", close = attrs.take("rquote") ?? "\""
            let variant = attrs.take("mathvariant") { MathVariant(mathML: $0) }
            let content = Self.collapse(frame.text, preserve: frame.preserveSpace)
            if !frame.glyphText.isEmpty, content == Self.collapse(frame.glyphText, preserve: frame.preserveSpace) {
                return node(.text(content, variant: variant))
            }
            return node(.text(open + content + close, variant: variant))
        case "mspace":
            let width = attrs.take("width", warn: false) { MathMLLength.em($0) } ?? 0
            discardChildren(frame)
            return node(.space(width: width))
        case "mrow":
            return buildRow(frame, &attrs)
        case "mfrac":
            var props = FractionProperties()
            // A negative thickness draws no line: it is 0 (MathML Core, "fractions"), so a fraction
            // written with `negativeverythinmathspace` is a binomial's stack, as one with `0` is.
            props.lineThickness = attrs.take("linethickness", warn: false) { MathMLLength.em($0).map { max(0, $0) } }
            props.numeratorAlign = attrs.take("numalign", warn: false) { value -> String?? in
                switch value.trimmingCharacters(in: .whitespaces) {
                case "left": return .some("left")
                case "right": return .some("right")
                case "center": return .some(nil)
                default: return nil
                }
            } ?? nil
            props.displayStyle = attrs.bool("displaystyle")
            props.continued = attrs.bool(MathMLConvention.continued) ?? false
            return node(.fraction(props), fixArity(frame, 2))
        case "msqrt":
            return node(.squareRoot, [inferredRow(frame)])
        case "mroot":
            return node(.root, fixArity(frame, 2))
        case "msub":
            return Self.scriptsOnLastPiece(node(.subscript, Self.evaluationBarBase(fixArity(frame, 2))))
        case "msup":
            return Self.scriptsOnLastPiece(node(.superscript, fixArity(frame, 2)))
        case "msubsup":
            return Self.scriptsOnLastPiece(node(.subSuperscript, Self.evaluationBarBase(fixArity(frame, 3))))
        case "munder", "mover", "munderover":
            let props = UnderOverProperties(accent: attrs.bool("accent") ?? false,
                                            accentUnder: attrs.bool("accentunder") ?? false)
            var parts = fixArity(frame, frame.name == "munderover" ? 3 : 2)
            // A letter written as text under an accent or arrow (`<mover><mtext>E</mtext><mo>→</mo></mover>`,
            // as some publishers set an upright vector) is the upright letter, as `<mi mathvariant="normal">`
            // is: a letter the analysis reads (a vector applied to parentheses), not a word.
            if parts.count == 2, case .operator = parts[1].kind, case let .text(t, variant) = parts[0].kind,
               t.unicodeScalars.count == 1, let letter = t.unicodeScalars.first, letter.properties.isAlphabetic {
                parts[0] = MathNode(.identifier(t, variant: variant ?? .normal), range: parts[0].range, attributes: parts[0].attributes)
            }
            switch frame.name {
            case "munder": return node(.under(props), parts)
            case "mover": return node(.over(props), parts)
            default: return node(.underOver(props), parts)
            }
        case "mmultiscripts":
            return buildMultiscripts(frame, &attrs)
        case "mprescripts":
            discardChildren(frame)
            return .prescripts(range: range)
        case "none":
            discardChildren(frame)
            return node(.none)
        case "mtable":
            return buildTable(frame, &attrs)
        case "mtr", "mlabeledtr":
            let cells = collectNodes(frame).map { child -> MathNode in
                if case .tableCell = child.kind { return child }
                warn("mathml.misplaced-element", "content of a table row outside <mtd> is put in a cell", at: child.range)
                return MathNode(.tableCell, [child], range: child.range)
            }
            // A label is text as written (`<mtd><mtext>(3.1)</mtext></mtd>`): signs the reader split off it
            // (``signsSetAsText(_:range:attributes:)``) are joined again.
            if frame.name == "mlabeledtr", let label = cells.first {
                return node(.tableRow(labeled: true), [Self.labelRejoined(label)] + cells.dropFirst())
            }
            return node(.tableRow(labeled: false), cells)
        case "mtd":
            // A cell's content is a row (an inferred `mrow`): its items as a row's are set, with a sentence's punctuation
            // typed after a word set apart as in a row (`<mtd>…<mn>158.11</mn><mtext>m/s,</mtext>…</mtd>`, as OpenStax's physics
            // lists results in a table's cells: "158.11 m/s,", textbook sweep 13). A colon stays: a cell opens with a label
            // (`<mtext>Anode:</mtext>`, OpenStax's chemistry), which the analysis reads with its colon and before a formula.
            var content = collectNodes(frame)
            Self.rowItemsMended(&content)
            return node(.tableCell, Self.punctuationSetApart(content, colon: false))
        case "menclose":
            let notation = attrs.take("notation").map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ") } ?? "longdiv"
            return node(.enclose(notation: notation), collectNodes(frame))
        case "mstyle":
            return buildStyle(frame, &attrs)
        case "mphantom":
            return node(.phantom, collectNodes(frame))
        case "mpadded":
            var props = PaddedProperties()
            props.width = attrs.take("width", warn: false) { MathMLLength.em($0, syntax: .emOrZero) }
            props.height = attrs.take("height", warn: false) { MathMLLength.em($0, syntax: .emOrZero) }
            props.depth = attrs.take("depth", warn: false) { MathMLLength.em($0, syntax: .emOrZero) }
            // `lspace` in em, or as a multiple of the content's width (`-1width`, as MathJax writes \llap).
            if let widths = attrs.take("lspace", warn: false, { MathMLLength.widths($0) }) {
                props.leftShiftWidths = widths
            } else {
                props.leftShift = attrs.take("lspace", warn: false) { MathMLLength.em($0, syntax: .emOrZero) }
            }
            return node(.padded(props), collectNodes(frame))
        case "merror":
            var text = ""
            for child in collectNodes(frame) {
                child.walk { if let leaf = $0.leafText { text += leaf } else if case let .error(inner) = $0.kind { text += inner } }
            }
            return node(.error(text))
        case "mfenced":
            return buildFenced(frame, &attrs)
        case "semantics":
            var children: [MathNode] = []
            var annotations: [Annotation] = []
            var presentation: MathNode?
            var tex: (text: String, range: SourceRange?)?
            for item in frame.items {
                switch item {
                case let .node(child, _): children.append(child)
                case let .annotation(annotation, r, tree):
                    annotations.append(annotation)
                    if presentation == nil { presentation = tree }
                    if tex == nil, Self.isTeX(encoding: annotation.encoding) { tex = (annotation.text, r) }
                case let .prescripts(r):
                    warn("mathml.misplaced-element", "<mprescripts/> outside <mmultiscripts> is ignored", at: r)
                }
            }
            // A `semantics` without its presentation child (MathML 3 §5.1.2 makes it the first) is read
            // from an annotation of presentation MathML when it has one, else from its TeX when the
            // options can read TeX; otherwise it says nothing, and a warning says why (an empty
            // `semantics`, like an empty `mrow`, has nothing to be read and is not warned about).
            if children.isEmpty {
                if let presentation {
                    children = [presentation]
                } else if let tex, let read = options.texAnnotationReader?(tex.text) {
                    children = [read.root.placed(at: tex.range)]   // its depth is bounded by the TeX parser's limit
                    for var diagnostic in read.diagnostics {
                        diagnostic.range = tex.range
                        diagnostic.fixIts = []
                        diagnostic.notes = diagnostic.notes.map { Diagnostic.Note($0.message, range: tex.range) }
                        diagnostics.append(diagnostic)
                    }
                } else if !annotations.isEmpty {
                    warn("mathml.wrong-child-count",
                         "<semantics> has no presentation child, no <annotation-xml> of presentation MathML and no TeX annotation read: nothing of it is said",
                         at: frame.startTagRange)
                }
            }
            return node(.semantics(annotations: annotations), children)
        case "annotation":
            let encoding = attrs.take("encoding") ?? ""
            return .annotation(Annotation(encoding: encoding, text: Self.collapse(frame.text, preserve: true)),
                               range: range, presentation: nil)
        case "annotation-xml":
            let encoding = attrs.take("encoding") ?? ""
            var text = frame.text
            if let content = frame.contentRange, content.upperBound <= source.count {
                text = String(decoding: source[content.lowerBound..<content.upperBound], as: UTF8.self)
            }
            // Read as elements too when a `semantics` may need it as its presentation
            // (``MathMLTreeBuilder/Role/presentationAnnotation``): one node, or a row of several.
            var presentation: MathNode?
            if frame.role == .presentationAnnotation {
                let nodes = collectNodes(frame)
                presentation = nodes.count == 1 ? nodes[0] : MathNode(.row, nodes, range: frame.contentRange ?? range)
            }
            return .annotation(Annotation(encoding: encoding, text: Self.collapse(text, preserve: true)),
                               range: range, presentation: presentation)
        case "maction":
            let nodes = collectNodes(frame)
            let selection = attrs.take("selection", warn: false) { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
            guard !nodes.isEmpty else { return .node(MathNode(.row, [], range: range), marker: nil) }
            // `selection` is 1-based; out-of-range values (even Int.min) fall back to the first child.
            let index = selection > 0 && selection <= nodes.count ? selection - 1 : 0
            return .node(nodes[index], marker: nil)
        case "math":
            let isDisplay = attrs.take("display").map { $0.trimmingCharacters(in: .whitespaces) == "block" }
                ?? (attrs.take("mode").map { $0.trimmingCharacters(in: .whitespaces) == "display" } ?? false)
            noteMath(display: isDisplay, attributes: attrs.remaining)
            let nodes = rowChildren(frame)
            // The author's words for the whole formula (its accessible name) are what it says: kept on
            // the root as its `aria-label`.
            if options.keepsFormulaLabel, let label = Self.directSpeech(attrs.remaining) {
                return .node(MathNode(.row, nodes, range: range, attributes: ["aria-label": label]), marker: nil)
            }
            if nodes.count == 1 { return .node(nodes[0], marker: nil) }
            return .node(MathNode(.row, nodes, range: range), marker: nil)
        case "malignmark", "maligngroup":
            return nil
        case "mglyph":
            let alt = attrs.take("alt") ?? ""
            return node(.identifier(alt, variant: nil))
        default:
            warn("mathml.unknown-element", "unknown element <\(frame.name)>; its children are kept as a row",
                 at: frame.startTagRange)
            return node(.row, collectNodes(frame))
        }
    }

    // MARK: - Helpers

    /// The words an author gave an element to be spoken instead of its content: its accessible name
    /// (`aria-label`) or speech an authoring tool stored with it (`exact-speech`, as Speech Rule Engine
    /// writes it). Nil when neither is given or both are blank. A text alternative (`alttext`, or a
    /// stray `alt`) is not read: it is the fallback for a reader that cannot read the MathML, and is
    /// often its TeX source.
    static func directSpeech(_ attributes: [String: String]) -> String? {
        for name in ["aria-label", "exact-speech"] {
            if let value = attributes[name], !value.allSatisfy(\.isWhitespace) { return value }
        }
        return nil
    }

    /// Children of an element that takes none are dropped.
    private func discardChildren(_ frame: Frame) {
        if !frame.items.isEmpty {
            warn("mathml.unexpected-children", "the children of <\(frame.name)> are ignored", at: frame.startTagRange)
        }
    }

    /// The content of an element with an inferred `mrow` (`msqrt`): one child as is, otherwise a row.
    private func inferredRow(_ frame: Frame) -> MathNode {
        let nodes = rowChildren(frame)
        if nodes.count == 1 { return nodes[0] }
        let range = nodes.reduce(nil) { SourceRange.union($0, $1.range) } ?? frame.contentRange
        return MathNode(.row, nodes, range: range)
    }

    /// Exactly `count` children: missing ones become empty rows, extra ones join the last.
    private func fixArity(_ frame: Frame, _ count: Int) -> [MathNode] {
        var nodes = collectNodes(frame)
        if nodes.count == count { return nodes }
        error("mathml.wrong-child-count",
              "<\(frame.name)> needs \(count) children but has \(nodes.count)", at: frame.startTagRange)
        if nodes.count < count {
            let at = frame.contentRange.map { SourceRange($0.upperBound, $0.upperBound) }
            while nodes.count < count { nodes.append(MathNode(.row, [], range: at)) }
            return nodes
        }
        let extra = Array(nodes[(count - 1)...])
        return Array(nodes[..<(count - 1)])
            + [MathNode(.row, extra, range: extra.reduce(nil) { SourceRange.union($0, $1.range) })]
    }

    // MARK: - mo

    private func buildOperator(_ frame: Frame, _ attrs: inout MathMLAttributes) -> Item {
        var text = Self.collapse(frame.text, preserve: frame.preserveSpace)
        // Fullwidth forms are the ASCII operators (`＋` is `+`).
        if let plain = UnicodeMath.plainLetters(text), plain.variant == nil { text = plain.text }
        // Nabla set as an operator (`<mo>∇</mo><mi>f</mi>`, 108 formulas of OpenStax's calculus books) is the symbol TeX's
        // `\nabla` makes, an identifier, which the analysis reads as del before its operand: "the gradient of f" (it was
        // "del f", a product). So is the partial sign (`<mo>∂</mo><mi>f</mi>` over `<mo>∂</mo><mi>x</mi>`, 285 formulas of
        // OpenStax's Spanish calculus books): TeX's `\partial` is an identifier, and the fraction is the partial derivative
        // ("the partial derivative of f with respect to x"; it was "the fraction with numerator partial f…", textbook sweep 17).
        // (Told on bytes, E2 88 87 and E2 88 82: a `String` comparison of every operator with the two cost +0.5 % of reading
        // MathML, callgrind on 8,000 OpenStax formulas, session 52.)
        if text.utf8.count == 3, text.utf8.last == 0x87 || text.utf8.last == 0x82, text == "\u{2207}" || text == "\u{2202}" {
            return .node(MathNode(.identifier(text, variant: nil), range: frame.range, attributes: attrs.leftover), marker: nil)
        }
        // A closing bracket or an ellipsis typed with a sentence's punctuation in one operator (`<mo>).</mo>`, `<mo>],</mo>`, as
        // OpenStax's College Physics sets some): the two operators, as `<mo>)</mo><mo>.</mo>` ("close paren dot" before, the
        // parenthesis unpaired).
        // (Told first by the last byte and the length in bytes: most operators end in no stop.)
        if let end = text.utf8.last, end == 0x2E || end == 0x2C || end == 0x3B, text.utf8.count <= 4, text.unicodeScalars.count == 2,
           let first = text.unicodeScalars.first, ")]}\u{2026}".unicodeScalars.contains(first),
           let stopped = Self.withStopAfter(text, range: frame.range, { Self.operatorLeaf($0, range: frame.range, attributes: attrs.leftover) }) {
            return .node(stopped, marker: nil)
        }
        var marker: FenceMarker?
        let raw = attrs.remaining
        if raw["fence"]?.trimmingCharacters(in: .whitespaces) == "true",
           raw["stretchy"]?.trimmingCharacters(in: .whitespaces) != "false",
           raw.keys.allSatisfy({ $0 == "fence" || $0 == "stretchy" || $0 == "form" }) {
            marker = .explicit
        } else if raw[MathMLConvention.mathJaxClass] == "OPEN" {
            marker = .mathJaxOpen
        } else if raw[MathMLConvention.mathJaxClass] == "CLOSE" {
            marker = .mathJaxClose
        }

        var props = OperatorDictionary.properties(for: text)
        if let v = attrs.bool("stretchy") { props.stretchy = v }
        if let v = attrs.bool("largeop") { props.largeOperator = v }
        if let v = attrs.bool("movablelimits") { props.movableLimits = v }
        if let v = attrs.bool("fence") { props.fence = v }
        if let v = attrs.bool("separator") { props.separator = v }
        // form="prefix"/"postfix" on a fence says opening/closing; other uses of form are kept.
        switch attrs.peek("form")?.trimmingCharacters(in: .whitespaces) {
        case "prefix" where props.fence: props.atomClass = .open; _ = attrs.take("form")
        case "postfix" where props.fence: props.atomClass = .close; _ = attrs.take("form")
        default: break
        }
        if let atomClass = attrs.take(MathMLConvention.atomClass, { AtomClass(rawValue: $0.trimmingCharacters(in: .whitespaces)) }) {
            props.atomClass = atomClass
        } else if let atomClass = attrs.take(MathMLConvention.mathJaxClass, warn: false, {
            AtomClass(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased())
        }) {
            props.atomClass = atomClass
        }
        // \big-style sizes are written as minsize = maxsize.
        let minSize = attrs.peek("minsize").flatMap { MathMLLength.em($0) }
        let maxSize = attrs.peek("maxsize").flatMap { MathMLLength.em($0) }
        switch (minSize, maxSize) {
        case let (lo?, hi?) where lo == hi:
            props.size = lo; _ = attrs.take("minsize"); _ = attrs.take("maxsize")
        case let (lo?, nil):
            props.size = lo; _ = attrs.take("minsize")
        case let (_, hi?):
            props.size = hi; _ = attrs.take("maxsize")
        default: break
        }
        return .node(MathNode(.operator(text, props), range: frame.range, attributes: attrs.leftover), marker: marker)
    }

    // MARK: - mrow and fences

    /// An `mrow`; one whose first and last children are fence-marked `mo`s is a fenced group
    /// (the convention documented in ``MathMLWriter``).
    private func buildRow(_ frame: Frame, _ attrs: inout MathMLAttributes) -> Item {
        // The children and their fence markers in one pass (they were collected again for a plain row).
        var collected: [FenceMarker?]? = []
        let nodes = collectNodes(frame, markers: &collected)
        let markers = collected ?? []
        if nodes.count >= 2, let first = markers.first ?? nil, let last = markers.last ?? nil {
            var isFenced = false
            if first == .explicit, last == .explicit {
                isFenced = true
            } else if first == .mathJaxOpen, last == .mathJaxClose, attrs.peek(MathMLConvention.mathJaxClass) == "INNER" {
                _ = attrs.take(MathMLConvention.mathJaxClass)
                isFenced = true
            }
            if isFenced { return fencedRow(frame, nodes, &attrs) }
        }
        if Self.isOpenerBeforeEmptyCloser(nodes) { return fencedRow(frame, nodes, &attrs) }
        return .node(MathNode(.row, Self.rowNodes(nodes), range: frame.range, attributes: attrs.leftover), marker: nil)
    }

    /// The fenced group of an `mrow` whose first and last children are its fences.
    private func fencedRow(_ frame: Frame, _ nodes: [MathNode], _ attrs: inout MathMLAttributes) -> Item {
        let open = nodes[0].leafText ?? "", close = nodes[nodes.count - 1].leafText ?? ""
        var inner = Array(nodes[1..<(nodes.count - 1)])
        Self.rowItemsMended(&inner)
        return .node(MathNode(.fenced(open: open, close: close), inner,
                              range: frame.range, attributes: attrs.leftover), marker: nil)
    }

    /// An `mrow` that opens with an opening fence `mo` (by the operator dictionary, marked or not) and ends
    /// with an empty `mo`: MathJax 2's `\left\{ … \right.` (`<mo>{</mo>…<mo fence="true" stretchy="true"
    /// symmetric="true"></mo>`), the cases and systems of web pages, read as the TeX is.
    static func isOpenerBeforeEmptyCloser(_ nodes: [MathNode]) -> Bool {
        guard nodes.count >= 3, case .operator(let close, _) = nodes[nodes.count - 1].kind, close.isEmpty,
              case .operator(let open, let props) = nodes[0].kind, !open.isEmpty, props.atomClass == .open else { return false }
        return true
    }

    /// `mfenced` (deprecated): a fenced group with the separators as operators between items.
    private func buildFenced(_ frame: Frame, _ attrs: inout MathMLAttributes) -> Item {
        let open = (attrs.take("open") ?? "(").trimmingCharacters(in: .whitespacesAndNewlines)
        let close = (attrs.take("close") ?? ")").trimmingCharacters(in: .whitespacesAndNewlines)
        let separators = (attrs.take("separators") ?? ",").unicodeScalars
            .filter { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }.map { String($0) }
        let items = collectNodes(frame)
        var children: [MathNode] = []
        for (index, item) in items.enumerated() {
            if index > 0, !separators.isEmpty {
                let separator = separators[min(index - 1, separators.count - 1)]
                var props = OperatorDictionary.properties(for: separator)
                props.separator = true
                children.append(MathNode(.operator(separator, props)))
            }
            children.append(item)
        }
        return .node(MathNode(.fenced(open: open, close: close), children, range: frame.range,
                              attributes: attrs.leftover), marker: nil)
    }

    // MARK: - mmultiscripts

    private func buildMultiscripts(_ frame: Frame, _ attrs: inout MathMLAttributes) -> Item {
        var base: MathNode?
        var post: [MathNode] = [], pre: [MathNode] = []
        var inPre = false
        for item in frame.items {
            switch item {
            case let .node(child, _):
                if base == nil, !inPre { base = child } else if inPre { pre.append(child) } else { post.append(child) }
            case .prescripts:
                if base == nil {
                    base = MathNode(.row, [], range: nil)
                    error("mathml.wrong-child-count", "<mmultiscripts> has no base", at: frame.startTagRange)
                }
                inPre = true
            case let .annotation(_, r, _):
                warn("mathml.misplaced-element", "an annotation outside <semantics> is ignored", at: r)
            }
        }
        if base == nil {
            error("mathml.wrong-child-count", "<mmultiscripts> has no base", at: frame.startTagRange)
        }
        if post.count % 2 == 1 || pre.count % 2 == 1 {
            warn("mathml.wrong-child-count", "<mmultiscripts> scripts come in pairs; <none/> added",
                 at: frame.startTagRange)
            if post.count % 2 == 1 { post.append(MathNode(.none)) }
            if pre.count % 2 == 1 { pre.append(MathNode(.none)) }
        }
        return .node(MathNode(.multiscripts(prescriptPairs: pre.count / 2),
                              [base ?? MathNode(.row, [])] + post + pre,
                              range: frame.range, attributes: attrs.leftover), marker: nil)
    }

    // MARK: - mtable

    private func buildTable(_ frame: Frame, _ attrs: inout MathMLAttributes) -> Item {
        var props = TableProperties(environment: attrs.take(MathMLConvention.environment) ?? "mtable")
        props.columnAlignments = attrs.take("columnalign", warn: false) { Self.list($0, ColumnAlignment.init(rawValue:)) } ?? []
        props.columnLines = attrs.take("columnlines", warn: false) { Self.list($0, TableLine.init(rawValue:)) } ?? []
        props.rowLines = attrs.take("rowlines", warn: false) { Self.list($0, TableLine.init(rawValue:)) } ?? []
        props.frame = attrs.take("frame", warn: false) { TableLine(rawValue: $0.trimmingCharacters(in: .whitespaces)) } ?? .none
        props.leftLine = attrs.take(MathMLConvention.leftLine) { TableLine(rawValue: $0.trimmingCharacters(in: .whitespaces)) } ?? .none
        props.rightLine = attrs.take(MathMLConvention.rightLine) { TableLine(rawValue: $0.trimmingCharacters(in: .whitespaces)) } ?? .none
        props.displayStyle = attrs.bool("displaystyle") ?? false
        props.numbered = attrs.bool(MathMLConvention.numbered) ?? false
        let rows = collectNodes(frame).map { child -> MathNode in
            switch child.kind {
            case .tableRow: return child
            case .tableCell:
                warn("mathml.misplaced-element", "<mtd> directly in <mtable> is put in a row", at: child.range)
                return MathNode(.tableRow(labeled: false), [child], range: child.range)
            default:
                warn("mathml.misplaced-element", "content of a table outside <mtr> is put in a row", at: child.range)
                return MathNode(.tableRow(labeled: false), [MathNode(.tableCell, [child], range: child.range)],
                                range: child.range)
            }
        }
        return .node(MathNode(.table(props), rows, range: frame.range, attributes: attrs.leftover), marker: nil)
    }

    /// A whitespace-separated list of keywords, nil if any is not understood.
    static func list<T>(_ text: String, _ parse: (String) -> T?) -> [T]? {
        var result: [T] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            guard let value = parse(String(word)) else { return nil }
            result.append(value)
        }
        return result
    }

    // MARK: - mstyle

    /// `node` with `variant` on each of its tokens (identifiers, numbers, texts) that has none: a style's
    /// `mathvariant`. An italic letter that is italic by default stays the plain letter, as in `mi`.
    static func styled(_ node: MathNode, _ variant: MathVariant) -> MathNode {
        let kind: MathNode.Kind
        switch node.kind {
        case .identifier(let t, nil):
            let sole = t.unicodeScalars.count == 1 ? t.unicodeScalars.first : nil
            if variant == .italic, sole.map(UnicodeMath.isItalicByDefault) == true { return node }
            kind = .identifier(t, variant: variant)
        case .number(let t, nil): kind = .number(t, variant: variant)
        case .text(let t, nil): kind = .text(t, variant: variant)
        case .identifier, .number, .text, .operator, .space, .none: return node
        default:
            if node.children.isEmpty { return node }
            return node.withChildren(node.children.map { styled($0, variant) })
        }
        return MathNode(kind, children: node.children, range: node.range, attributes: node.attributes)
    }

    private func buildStyle(_ frame: Frame, _ attrs: inout MathMLAttributes) -> Item {
        var nodes = collectNodes(frame)
        // `mathvariant` on a style is every token's inside it that sets none of its own (MathML 3 §3.3.4: `<mstyle
        // mathvariant="bold"><mi>v</mi></mstyle>` is `<mi mathvariant="bold">v</mi>`, as OpenStax's calculus books set
        // vectors, some 2,700 formulas: they were "v", and a vector function `r(t)` set as text "r t"). The attribute
        // stays on the style, as written.
        if let variant = attrs.peek("mathvariant").flatMap({ MathVariant(mathML: $0) }) {
            nodes = nodes.map { Self.styled($0, variant) }
        } else if attrs.peek("fontstyle")?.trimmingCharacters(in: .whitespaces) == "italic" {
            nodes = nodes.map(Self.italicStyled)
        }
        // KaTeX and MathJax write \dfrac as `<mstyle displaystyle="true" scriptlevel="0"><mfrac>`; that
        // stays a style around a fraction (same meaning). This writer puts `displaystyle` on the mfrac.
        var props = StyleProperties()
        props.color = attrs.take("mathcolor") ?? attrs.take("color")
        props.background = attrs.take("mathbackground") ?? attrs.take("background")
        props.displayStyle = attrs.bool("displaystyle")
        props.scriptLevel = attrs.take("scriptlevel", warn: false) { value -> Int? in
            let v = value.trimmingCharacters(in: .whitespaces)
            guard let first = v.first, first.isNumber else { return nil } // "+1"/"-1" are relative
            return Int(v)
        }
        props.mathSize = attrs.take("mathsize", warn: false) { MathMLLength.scale($0) }
        return .node(MathNode(.style(props), nodes, range: frame.range, attributes: attrs.leftover), marker: nil)
    }
}
