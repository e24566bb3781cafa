import MathSyntax

/// The siunitx package's numbers, units and quantities (`\num`, `\si`/`\unit`, `\SI`/`\qty`, `\ang`), as
/// physics and chemistry papers and textbooks write them (siunitx 3's manual, §§ 4–5: the unit macros,
/// prefixes and powers below are its own names). Each is rewritten into the TeX a reader would have typed
/// for what siunitx prints, and read as that: `\SI{9.81}{\metre\per\second\squared}` as
/// `9.81\,\mathrm{m}\,\mathrm{s}^{-2}` (the "power" form siunitx prints by default), so that the analysis
/// of quantities reads it ("9.81 meters per second squared"). A unit alone (`\si{\kilo\gram}`, `\unit{km}`)
/// is marked as a unit (`intent=":unit"`, as MathML marks one), since nothing else says it is one.
/// Options in brackets change only how siunitx prints (spacing, grouping, the form of a quotient): they
/// are read and left.
enum UnitCommands {
    static let all: [CommandDefinition] = [
        CommandDefinition(["num", "tablenum"], [], modes: .both) { core, call in core.siunitx(call, .number) },
        CommandDefinition(["si", "unit"], [], modes: .both) { core, call in core.siunitx(call, .unit) },
        CommandDefinition(["SI", "qty"], [], modes: .both) { core, call in core.siunitx(call, .quantity) },
        CommandDefinition(["ang"], [], modes: .both) { core, call in core.siunitx(call, .angle) },
    ]

    enum Form { case number, unit, quantity, angle }

    /// What siunitx prints right after a number, with no space and no font: the degree, the minute and the second of
    /// arc (`\ang`'s parts; the unit `\degree`), the percent sign.
    enum Mark { case degree, arcminute, arcsecond, percent }

    /// The unit macros: the SI units (base and derived, with their alternative spellings), the non-SI
    /// units siunitx names, and what each prints.
    static let units: [String: String] = [
        "ampere": "A", "candela": "cd", "kelvin": "K", "kilogram": "kg", "gram": "g", "metre": "m", "meter": "m",
        "mole": "mol", "second": "s", "becquerel": "Bq", "coulomb": "C", "farad": "F", "gray": "Gy",
        "hertz": "Hz", "henry": "H", "joule": "J", "katal": "kat", "lumen": "lm", "lux": "lx", "newton": "N", "ohm": "Ω",
        "pascal": "Pa", "radian": "rad", "siemens": "S", "sievert": "Sv", "steradian": "sr", "tesla": "T", "volt": "V",
        "watt": "W", "weber": "Wb", "astronomicalunit": "au", "bel": "B", "dalton": "Da", "day": "d", "decibel": "dB",
        "electronvolt": "eV", "hectare": "ha", "hour": "h", "litre": "L", "liter": "L", "minute": "min", "neper": "Np",
        "tonne": "t", "angstrom": "Å", "bar": "bar", "barn": "b", "bit": "bit", "byte": "B", "knot": "kn",
        "millimetremercury": "mmHg", "nauticalmile": "M", "atomicmassunit": "u", "calorie": "cal", "gauss": "G",
        "erg": "erg", "dyne": "dyn", "atmosphere": "atm", "torr": "Torr", "parsec": "pc", "lightyear": "ly",
    ]

    /// siunitx's abbreviated units (`\\kg`, `\\MHz`, `\\umol`…), each a prefix and a unit in one name: what each
    /// prints (the name itself, but `u` for micro and `ohm` for Ω).
    static let abbreviations: [String: String] = {
        let names = """
            fg pg ng ug mg g kg nm um mm cm dm m km as fs ps ns us ms s fmol pmol nmol umol mmol mol kmol pA nA uA mA A kA \
            ul ml l hl uL mL L hL mHz Hz kHz MHz GHz THz mN N kN MN Pa kPa MPa GPa mohm kohm Mohm pV nV uV mV V kV \
            W uW mW kW MW GW J uJ mJ kJ eV meV keV MeV GeV TeV kWh F fF pF nF uF mF H mH C nC mC uC K dB
            """
        var table: [String: String] = [:]
        for name in names.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            var symbol = String(name)
            if symbol.hasSuffix("ohm") { symbol = String(symbol.dropLast(3)) + "Ω" }
            if symbol.count > 1, symbol.hasPrefix("u") { symbol = "µ" + symbol.dropFirst() }
            table[String(name)] = symbol
        }
        return table
    }()

    /// The SI prefixes as siunitx names them, and what each prints.
    static let prefixes: [String: String] = [
        "quecto": "q", "ronto": "r", "yocto": "y", "zepto": "z", "atto": "a", "femto": "f", "pico": "p", "nano": "n",
        "micro": "µ", "milli": "m", "centi": "c", "deci": "d", "deca": "da", "deka": "da", "hecto": "h", "kilo": "k",
        "mega": "M", "giga": "G", "tera": "T", "peta": "P", "exa": "E", "zetta": "Z", "yotta": "Y", "ronna": "R",
        "quetta": "Q", "kibi": "Ki", "mebi": "Mi", "gibi": "Gi", "tebi": "Ti",
    ]
}

extension ParserCore {
    /// One unit as siunitx prints it: its symbol (prefix and unit, or letters written as they are) and
    /// its power (1 when none).
    private struct PrintedUnit {
        var symbol: [Unicode.Scalar]
        var power: [Unicode.Scalar] = ["1"]
        /// `\degree`, `\arcminute`, `\arcsecond`, `\percent`: a mark after the number.
        var mark: UnitCommands.Mark? = nil
    }

    /// Reads a siunitx command: its options (left), then its number, unit or both, and returns the tree of
    /// the TeX it prints.
    mutating func siunitx(_ call: Invocation, _ form: UnitCommands.Form) -> MathNode? {
        _ = expander.readOptionalArgument()
        var arguments: [[Token]] = []
        for _ in 0 ..< (form == .quantity ? 2 : 1) {
            guard let tokens = expander.readArgument() else {
                error("tex.missing-argument", "\\\(call.name) needs \(form == .quantity ? "a number and a unit" : "an argument") in braces",
                      at: call.range)
                return MathNode(.error("\\" + call.name), range: call.range)
            }
            arguments.append(tokens)
        }
        let r = call.range
        var out: [Token] = [Token(.beginGroup, scalar: "{", range: r)]
        // Whether a quantity has one unit of the first power (`\SI{5}{\atto\second}`).
        var single = false
        switch form {
        case .number:
            out += siNumber(arguments[0], r)
        case .angle:
            // `\ang{1;2;3}`: degrees, minutes and seconds (a part may be empty: `\ang{;;5}`).
            var part: [Token] = [], parts: [[Token]] = []
            for t in arguments[0] { if t.isCharacter(";") { parts.append(part); part = [] } else { part.append(t) } }
            parts.append(part)
            let marks: [UnitCommands.Mark] = [.degree, .arcminute, .arcsecond]
            for (i, p) in parts.prefix(3).enumerated() where p.contains(where: { $0.kind != .space }) {
                out += siNumber(p, r) + markTokens(of: marks[i], r)
            }
        case .unit:
            out += siUnits(arguments[0], r, afterNumber: false).tokens
        case .quantity:
            out += siNumber(arguments[0], r)
            let units = siUnits(arguments[1], r, afterNumber: true)
            out += units.tokens
            single = units.single
        }
        out.append(Token(.endGroup, scalar: "}", range: r))
        expander.pushBack(out)
        var invocation = call
        readArguments([.math], into: &invocation)
        let node = invocation.node(0)
        // A unit alone is marked, as is the one unit of a quantity: the analysis reads a marked unit as one
        // whatever its symbol (`\SI{2}{a}` is 2 years, where `2\,\mathrm{a}` may be the letter or the article). The
        // units of a product or quotient are not: the analysis of a quantity's units written in `\mathrm`
        // reads them as one ("9.81 meters per second squared").
        return form == .unit || single ? markedUnits(node) : node
    }

    /// The tokens of a mark siunitx prints after a number (`^{\circ}`, `'`, `''`, `\%`).
    private func markTokens(of mark: UnitCommands.Mark, _ r: SourceRange) -> [Token] {
        switch mark {
        case .degree:
            return [Token(.superscript, scalar: "^", range: r), Token(.beginGroup, scalar: "{", range: r)] + controlSequence("circ", r)
                + [Token(.endGroup, scalar: "}", range: r)]
        case .arcminute: return [Token(.character, scalar: "'", range: r)]
        case .arcsecond: return [Token(.character, scalar: "'", range: r), Token(.character, scalar: "'", range: r)]
        case .percent: return controlSequence("%", r)
        }
    }

    /// The control sequence `name` as a token at `range` (none when the tables do not know it).
    private func controlSequence(_ name: String, _ range: SourceRange) -> [Token] {
        let entry = tables.entry(name)
        return entry >= 0 ? [Token(controlSequence: TokenName(rawValue: entry), tables: tables, range: range)] : []
    }

    /// The number as siunitx prints it: a decimal comma as a point (siunitx's output marker), `e` and `E`
    /// exponents as `× 10^n`, `+-` as `±`, an uncertainty in parentheses as the `±` it stands for
    /// (`1.23(4)` is 1.23 ± 0.04). Anything else (macros, signs, `\pm`) is kept.
    private func siNumber(_ tokens: [Token], _ r: SourceRange) -> [Token] {
        let items = tokens.filter { $0.kind != .space }
        var out: [Token] = []
        var i = 0
        func isDigit(_ k: Int) -> Bool { k >= 0 && k < items.count && items[k].kind == .character && items[k].scalar.properties.numericType != nil && items[k].scalar.isASCII }
        func char(_ c: Unicode.Scalar) -> Token { Token(.character, scalar: c, range: r) }
        // The decimals of the mantissa read so far (for an uncertainty in parentheses).
        var decimals = 0, afterPoint = false, sawPoint = false
        while i < items.count {
            let t = items[i]
            if t.kind == .character {
                let c = t.scalar
                // The first decimal marker only (`\num{1,2,3}` keeps its later commas).
                if !sawPoint, (c == "," || c == ".") && isDigit(i - 1) && isDigit(i + 1) || (c == "." || c == ",") && isDigit(i + 1) && out.isEmpty {
                    sawPoint = true
                    out.append(char("."))
                    afterPoint = true
                    decimals = 0
                    i += 1
                    continue
                }
                if (c == "e" || c == "E" || c == "d" || c == "D"), i + 1 < items.count,
                   isDigit(i + 1) || (items[i + 1].isCharacter("-") || items[i + 1].isCharacter("+")) && isDigit(i + 2) {
                    // The exponent: `× 10^{…}` (no mantissa: `\num{e5}` is 10⁵).
                    var j = i + 1
                    var exponent: [Token] = []
                    if items[j].isCharacter("-") { exponent.append(char("-")) }
                    if items[j].isCharacter("-") || items[j].isCharacter("+") { j += 1 }
                    while isDigit(j) { exponent.append(items[j]); j += 1 }
                    if !out.isEmpty { out += controlSequence("times", r) }
                    out += [char("1"), char("0"), Token(.superscript, scalar: "^", range: r), Token(.beginGroup, scalar: "{", range: r)]
                    out += exponent + [Token(.endGroup, scalar: "}", range: r)]
                    i = j
                    afterPoint = false
                    continue
                }
                if c == "+", i + 1 < items.count, items[i + 1].isCharacter("-") {
                    out += controlSequence("pm", r)
                    i += 2
                    afterPoint = false
                    sawPoint = false
                    continue
                }
                if c == "(", isDigit(i - 1), let close = items[(i + 1)...].firstIndex(where: { $0.isCharacter(")") }),
                   close > i + 1, (i + 1 ..< close).allSatisfy({ isDigit($0) || items[$0].isCharacter(".") }) {
                    // `1.23(4)`: the digits are the uncertainty of the last decimals; with a point, a value.
                    var digits = items[(i + 1) ..< close].map(\.scalar)
                    if !digits.contains("."), decimals > 0 {
                        while digits.count <= decimals { digits.insert("0", at: 0) }
                        digits.insert(".", at: digits.count - decimals)
                    }
                    out += controlSequence("pm", r) + digits.map(char)
                    i = close + 1
                    continue
                }
                if isDigit(i) && afterPoint { decimals += 1 }
            } else if t.kind == .controlSequence {
                // After `\pm`, `\times`… a number of its own, with its own point.
                afterPoint = false
                sawPoint = false
            }
            out.append(t)
            i += 1
        }
        return out
    }

    /// The units as siunitx prints them: each `\mathrm{…}` with its power (`^{-1}` for a unit after `\per`),
    /// a thin space between them (and between the number and the first, unless that is a mark:
    /// `30^{\circ}`, `5\%`). Literal units (`m/s`, `kg.m.s^{-2}`, `kg~m`) are letters in `\mathrm`, `.` and `~`
    /// products, `/` and powers as written. A macro siunitx does not name is kept, to be read as any.
    private func siUnits(_ tokens: [Token], _ r: SourceRange, afterNumber: Bool) -> (tokens: [Token], single: Bool) {
        var units: [PrintedUnit] = []
        var literal: [Token] = []   // tokens between units that are kept as written (`/`, `(`, other macros)
        var kept: [[Token]] = []    // per unit, what is written before it
        var prefix = "", nextPower: String? = nil, per = false
        var i = 0
        func add(_ symbol: String, mark: UnitCommands.Mark? = nil) {
            var u = PrintedUnit(symbol: Array((prefix + symbol).unicodeScalars), mark: mark)
            if let p = nextPower { u.power = Array(p.unicodeScalars) }
            if per { u.power = Array(("-" + (u.power == ["1"] ? "1" : String(String.UnicodeScalarView(u.power)))).unicodeScalars) }
            units.append(u)
            kept.append(literal)
            literal = []
            prefix = ""; nextPower = nil; per = false
        }
        func powerOfLast(_ p: [Unicode.Scalar]) {
            guard !units.isEmpty, !p.isEmpty else { return }
            let negative = units[units.count - 1].power.first == "-"
            units[units.count - 1].power = (negative ? ["-"] : []) + p
        }
        while i < tokens.count {
            let t = tokens[i]
            i += 1
            switch t.kind {
            case .controlSequence:
                let n = name(t)
                if let p = UnitCommands.prefixes[n] { prefix += p; continue }
                if let u = UnitCommands.units[n] ?? UnitCommands.abbreviations[n] { add(u); continue }
                switch n {
                case "per": per = true
                case "square": nextPower = "2"
                case "cubic": nextPower = "3"
                case "squared": powerOfLast(["2"])
                case "cubed": powerOfLast(["3"])
                case "tothe", "raiseto", "of", "highlight":
                    // `\tothe{4}` the last unit's power, `\raiseto{4}` the next's; `\of{…}` and `\highlight{…}` left.
                    var argument: [Token] = []
                    while i < tokens.count, tokens[i].kind == .space { i += 1 }
                    if i < tokens.count, tokens[i].kind == .beginGroup {
                        var depth = 0
                        while i < tokens.count {
                            if tokens[i].kind == .beginGroup { depth += 1 }
                            if tokens[i].kind == .endGroup { depth -= 1; if depth == 0 { i += 1; break } }
                            if depth > 0, tokens[i].kind != .beginGroup || depth > 1 { argument.append(tokens[i]) }
                            i += 1
                        }
                    } else if i < tokens.count { argument.append(tokens[i]); i += 1 }
                    let p = argument.filter { $0.kind == .character }.map(\.scalar)
                    if n == "tothe" { powerOfLast(p) } else if n == "raiseto", !p.isEmpty { nextPower = String(String.UnicodeScalarView(p)) }
                case "cancel": break
                case "degree": add("", mark: .degree)
                // The minute and second of arc as the units `arcmin` and `arcsec` (primes after a number alone are feet and inches).
                case "arcminute": add("arcmin")
                case "arcsecond": add("arcsec")
                case "percent": add("", mark: .percent)
                case "degreeCelsius": add("°C")
                case "mu": prefix += "µ"
                case "Omega": add("Ω")
                case "AA": add("Å")
                default: literal.append(t)
                }
            case .character where t.scalar.properties.isAlphabetic || t.scalar == "°" || t.scalar == "µ" || t.scalar == "Ω":
                // Letters written as they are: one unit up to a separator, digit or power.
                var symbol = String(t.scalar)
                while i < tokens.count, tokens[i].kind == .character,
                      tokens[i].scalar.properties.isAlphabetic || tokens[i].scalar == "°" {
                    symbol.unicodeScalars.append(tokens[i].scalar)
                    i += 1
                }
                add(symbol)
            case .character where t.scalar == "%":
                add("", mark: .percent)
            case .character where t.scalar == "." || t.scalar == "~" || t.scalar == "*":
                continue
            case .active, .space:
                continue
            case .superscript:
                // `^2`, `^{-1}` on the unit before.
                var p: [Unicode.Scalar] = []
                while i < tokens.count, tokens[i].kind == .space { i += 1 }
                if i < tokens.count, tokens[i].kind == .beginGroup {
                    i += 1
                    while i < tokens.count, tokens[i].kind != .endGroup { if tokens[i].kind == .character { p.append(tokens[i].scalar) }; i += 1 }
                    i += 1
                } else if i < tokens.count {
                    p.append(tokens[i].scalar); i += 1
                }
                if units.isEmpty || !literal.isEmpty { literal += [t] + p.map { Token(.character, scalar: $0, range: r) } } else {
                    units[units.count - 1].power = p
                }
            default:
                literal.append(t)
            }
        }
        if !prefix.isEmpty { add("") }
        var out: [Token] = []
        func char(_ c: Unicode.Scalar) -> Token { Token(.character, scalar: c, range: r) }
        for (k, u) in units.enumerated() {
            let before = kept[k]
            if let mark = u.mark {
                out += before
                if k == 0 && !afterNumber { out += [Token(.beginGroup, scalar: "{", range: r), Token(.endGroup, scalar: "}", range: r)] }
                out += markTokens(of: mark, r)
                continue
            }
            if (k > 0 || afterNumber) && before.isEmpty { out += controlSequence(",", r) }
            out += before
            out += controlSequence("mathrm", r) + [Token(.beginGroup, scalar: "{", range: r)] + u.symbol.map(char) + [Token(.endGroup, scalar: "}", range: r)]
            if u.power != ["1"] {
                out += [Token(.superscript, scalar: "^", range: r), Token(.beginGroup, scalar: "{", range: r)] + u.power.map(char)
                    + [Token(.endGroup, scalar: "}", range: r)]
            }
        }
        let single = units.count == 1 && units[0].mark == nil && units[0].power == ["1"] && kept[0].isEmpty && literal.isEmpty
        return (out + literal, single)
    }

    /// `node` with every upright identifier marked as a unit (`intent=":unit"`, `class="MathML-Unit"`). A
    /// symbol TeX split into identifiers (`\mathrm{kΩ}`, `\mathrm{µm}`: a letter it does not join to the others)
    /// is one unit again.
    private func markedUnits(_ node: MathNode) -> MathNode {
        var node = node
        if case .row = node.kind, node.children.count >= 2, node.children.allSatisfy({
            if case .identifier(_, .normal) = $0.kind { return true } else { return false }
        }) {
            let symbol = node.children.map { n -> String in if case .identifier(let t, _) = n.kind { return t } else { return "" } }.joined()
            node = MathNode(.identifier(symbol, variant: .normal), range: node.range, attributes: node.attributes)
        }
        if case .identifier(_, let variant) = node.kind, variant == .normal || variant == nil {
            var attributes = node.attributes ?? [:]
            attributes["intent"] = ":unit"
            attributes["class"] = "MathML-Unit"
            return MathNode(node.kind, children: node.children, range: node.range, attributes: attributes)
        }
        if node.children.isEmpty { return node }
        return MathNode(node.kind, node.children.map(markedUnits), range: node.range, attributes: node.attributes)
    }
}
