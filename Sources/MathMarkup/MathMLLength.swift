import Foundation

/// MathML lengths and numbers: parsing attribute values into em and writing em values back.
///
/// Conversions follow CSS as used by MathML Core with a 16px font: 1px = 1/16em, 1pt = 1/12em,
/// 1pc = 1em, 1in = 6em, 1cm = 6/2.54em, 1mm = 0.6/2.54em; 1ex is TeX's x-height of Computer
/// Modern (0.430555em); 1mu = 1/18em (TeXbook ch. 18). The MathML 3 named spaces are multiples of
/// 1/18em (`thinmathspace` = 3/18em …).
enum MathMLLength {
    /// How strictly a length is parsed.
    enum Syntax {
        /// Any absolute unit, `mu` and named spaces; a unitless number only when it is zero.
        case full
        /// Only `em` values and zero (with or without a unit): the `mpadded` attributes.
        case emOrZero
    }

    private static let namedSpaces: [String: Double] = [
        "veryverythinmathspace": 1, "verythinmathspace": 2, "thinmathspace": 3,
        "mediummathspace": 4, "thickmathspace": 5, "verythickmathspace": 6,
        "veryverythickmathspace": 7,
        "negativeveryverythinmathspace": -1, "negativeverythinmathspace": -2,
        "negativethinmathspace": -3, "negativemediummathspace": -4, "negativethickmathspace": -5,
        "negativeverythickmathspace": -6, "negativeveryverythickmathspace": -7,
    ]

    private static let unitFactors: [String: Double] = [
        "em": 1, "ex": 0.430555, "px": 1.0 / 16, "pt": 1.0 / 12, "pc": 1, "in": 6,
        "cm": 6 / 2.54, "mm": 0.6 / 2.54, "mu": 1.0 / 18,
    ]

    /// The value of `text` in em, or nil when it is not a length of the given syntax
    /// (percentages, relative `+…` increments, pseudo-units like `width`, unknown units).
    static func em(_ text: String, syntax: Syntax = .full) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if syntax == .full, let k = namedSpaces[trimmed] { return k / 18 }
        var numberEnd = trimmed.startIndex
        for (i, c) in zip(trimmed.indices, trimmed) {
            if c.isASCII && (c.isNumber || c == "." || (c == "-" && i == trimmed.startIndex)) {
                numberEnd = trimmed.index(after: i)
            } else {
                break
            }
        }
        let numberText = trimmed[..<numberEnd]
        let unit = String(trimmed[numberEnd...]).trimmingCharacters(in: .whitespaces)
        guard numberText.contains(where: \.isNumber), let value = Double(numberText) else { return nil }
        if unit.isEmpty { return value == 0 ? 0 : nil }
        if value == 0, unitFactors[unit] != nil { return 0 }
        switch syntax {
        case .full: return unitFactors[unit].map { value * $0 }
        case .emOrZero: return unit == "em" ? value : nil
        }
    }

    /// A multiple of an element's own width written with MathML 3's pseudo-unit (`-1width`, `0.5width`),
    /// nil for any other text.
    static func widths(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard trimmed.hasSuffix("width") else { return nil }
        return number(String(trimmed.dropLast(5)))
    }

    /// A plain number (digits, one optional point, optional leading minus), nil otherwise.
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.contains(where: \.isNumber),
              trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") })
        else { return nil }
        return Double(trimmed)
    }

    /// A scale factor: `144%` → 1.44, `1.44em` or `1.44` → 1.44 (the `mathsize` attribute).
    static func scale(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasSuffix("%") { return number(String(trimmed.dropLast())).map { $0 / 100 } }
        if trimmed.hasSuffix("em") { return number(String(trimmed.dropLast(2))) }
        return number(trimmed)
    }

    /// The shortest decimal text that reads back as exactly `value` (no exponent; `-0` → `0`).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        let text = "\(value)"
        guard text.contains("e") || text.contains("E") else { return text }
        // Very small or very large: fixed notation, trailing zeros removed.
        var fixed = String(format: "%.17f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed
    }

    /// `value` as an em length attribute value (`0.5em`; zero as `0em`).
    static func formatEm(_ value: Double) -> String { format(value) + "em" }
}
