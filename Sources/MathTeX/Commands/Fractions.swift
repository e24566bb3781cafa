import MathSyntax

/// Fractions and binomials: `\frac \dfrac \tfrac \cfrac \genfrac \binom \dbinom \tbinom`
/// (the infix forms `\over \atop \choose \brace \brack \above` are parsed in `Parser.swift`).
enum FractionCommands {
    static let all: [CommandDefinition] = [
        CommandDefinition(["frac", "dfrac", "tfrac"], [.math, .math]) { _, call in
            let display: Bool? = call.name == "dfrac" ? true : call.name == "tfrac" ? false : nil
            return MathNode(.fraction(FractionProperties(displayStyle: display)), children: .init(call.node(0), call.node(1)),
                            range: call.range)
        },
        CommandDefinition(["cfrac"], [.optionalRaw, .math, .math]) { core, call in
            var align: String? = nil
            if let a = call.arguments[0].raw {
                switch a.trimmingCharacters() {
                case "l": align = "left"
                case "r": align = "right"
                case "c", "": align = nil
                default: core.error("tex.bad-argument", "\\cfrac position must be l, c or r", at: call.arguments[0].range)
                }
            }
            return MathNode(.fraction(FractionProperties(displayStyle: true, continued: true, numeratorAlign: align)),
                            [call.node(1), call.node(2)], range: call.range)
        },
        CommandDefinition(["binom", "dbinom", "tbinom"], [.math, .math]) { _, call in
            let display: Bool? = call.name == "dbinom" ? true : call.name == "tbinom" ? false : nil
            let fraction = MathNode(.fraction(FractionProperties(lineThickness: 0, displayStyle: display)),
                                    [call.node(0), call.node(1)], range: call.range)
            return MathNode(.fenced(open: "(", close: ")"), children: .init(fraction), range: call.range)
        },
        CommandDefinition(["genfrac"], [.raw, .raw, .raw, .raw, .math, .math]) { core, call in
            let open = delimiterText(call.arguments[0].raw ?? "")
            let close = delimiterText(call.arguments[1].raw ?? "")
            let thicknessText = (call.arguments[2].raw ?? "").trimmingCharacters()
            var thickness: Double? = nil
            if !thicknessText.isEmpty {
                thickness = core.capSize(Dimension.parse(thicknessText), at: call.arguments[2].range)
                if thickness == nil { core.error("tex.bad-dimension", "'\(thicknessText)' is not a dimension", at: call.arguments[2].range) }
            }
            var display: Bool? = nil
            switch (call.arguments[3].raw ?? "").trimmingCharacters() {
            case "0": display = true
            case "1": display = false
            case "": display = nil
            default: display = false
            }
            let fraction = MathNode(.fraction(FractionProperties(lineThickness: thickness, displayStyle: display)),
                                    [call.node(4), call.node(5)], range: call.range)
            if open.isEmpty && close.isEmpty { return fraction }
            return MathNode(.fenced(open: open, close: close), children: .init(fraction), range: call.range)
        },
    ]

    /// The delimiter named by raw TeX (`(`, `\{`, `\langle`, `.` or empty).
    static func delimiterText(_ raw: String) -> String {
        let s = raw.trimmingCharacters()
        if s.isEmpty || s == "." { return "" }
        if s.hasPrefix("\\") {
            let name = String(s.dropFirst())
            if name == "{" || name == "lbrace" { return "{" }
            if name == "}" || name == "rbrace" { return "}" }
            if name == "|" { return "‖" }
            return SymbolTable.math(name)?.text ?? name
        }
        return s
    }
}

/// Roots: `\sqrt{x}` and `\sqrt[n]{x}`.
enum RootCommands {
    static let all: [CommandDefinition] = [
        CommandDefinition(["sqrt"], [.optionalMath, .math]) { _, call in
            if let index = call.arguments[0].node {
                return MathNode(.root, children: .init(call.node(1), index), range: call.range)
            }
            return MathNode(.squareRoot, children: .init(call.node(1)), range: call.range)
        },
    ]
}
