import MathSyntax

/// Colour, style and size: `\color \textcolor \colorbox \fcolorbox`, `\displaystyle \textstyle
/// \scriptstyle \scriptscriptstyle`, `\tiny … \Huge`. Switches (`\color`, `\displaystyle`, sizes)
/// apply to the rest of the group.
enum StyleCommands {
    private static let styles: [(String, Bool, Int)] = [
        ("displaystyle", true, 0), ("textstyle", false, 0), ("scriptstyle", false, 1), ("scriptscriptstyle", false, 2),
    ]
    private static let sizes: [(String, Double)] = [
        ("tiny", 0.5), ("sixptsize", 0.6), ("scriptsize", 0.7), ("footnotesize", 0.8), ("small", 0.9), ("normalsize", 1.0),
        ("large", 1.2), ("Large", 1.44), ("LARGE", 1.728), ("huge", 2.074), ("Huge", 2.488),
    ]

    static let all: [CommandDefinition] = [
        CommandDefinition(["color"], [.raw], modes: .both) { core, call in
            let color = core.checkedColor(call.arguments[0], for: call)
            let rest = core.parseRestOfGroup()
            return MathNode(.style(StyleProperties(color: color)), rest, range: SourceRange.union(call.range, rest.last?.range))
        },
        CommandDefinition(["textcolor"], [.raw], modes: .both) { core, call in
            let color = core.checkedColor(call.arguments[0], for: call)
            let content = core.mode == .math ? core.parseMathArgument(for: call) : core.parseTextArgument(for: call)
            return MathNode(.style(StyleProperties(color: color)), [content], range: SourceRange.union(call.range, content.range))
        },
        CommandDefinition(["colorbox"], [.raw, .text], modes: .both) { core, call in
            let color = core.checkedColor(call.arguments[0], for: call)
            return MathNode(.style(StyleProperties(background: color)), [call.node(1)], range: call.range)
        },
        CommandDefinition(["fcolorbox"], [.raw, .raw, .text], modes: .both) { core, call in
            let frame = core.checkedColor(call.arguments[0], for: call)
            let background = core.checkedColor(call.arguments[1], for: call)
            let boxed = MathNode(.enclose(notation: "box"), [call.node(2)], range: call.range)
            return MathNode(.style(StyleProperties(color: frame, background: background)), [boxed], range: call.range)
        },
    ] + styles.map { entry in
        let (name, display, level) = entry
        return CommandDefinition([name]) { core, call in
            let rest = core.parseRestOfGroup()
            return MathNode(.style(StyleProperties(displayStyle: display, scriptLevel: level)), rest,
                            range: SourceRange.union(call.range, rest.last?.range))
        }
    } + sizes.map { entry in
        let (name, size) = entry
        return CommandDefinition([name], modes: .both) { core, call in
            if core.mode == .math {
                // LaTeX's size commands are text font commands: in math mode they warn ("Command \tiny
                // invalid in math mode") and size no math (`\mathrm{\tiny RWL}` is the size around it), only
                // the text font, which `\text{…}` and the spaces `~` and `\ ` use.
                core.warning("tex.size-in-math", "\\\(name) does not size math (LaTeX ignores it in math mode); size text with \\text{\\\(name) …} or math with \\scriptstyle",
                             at: call.range)
                core.mathTextSize = size == 1 ? nil : size
                return nil
            }
            let rest = core.parseTextContent(until: .endGroup)
            return MathNode(.style(StyleProperties(mathSize: size)), rest, range: SourceRange.union(call.range, rest.last?.range))
        }
    }

    /// The interword space (em of the normal size) of LaTeX's text font at a size command's size: Latin
    /// Modern Roman in its optical size (5, 7, 8, 9, 10, 12, 17 pt), as LuaLaTeX measures `\ ` after
    /// `\tiny` … `\Huge` (2.36, 2.695, 2.832, 3.087, 3.33, 3.912, 4.694, 5.219, 6.263, 7.514 pt).
    static func interwordSpace(size: Double) -> Double {
        let spaces: [(Double, Double)] = [(0.5, 0.236), (0.6, 0.2695), (0.7, 0.2695), (0.8, 0.2832), (0.9, 0.3087),
                                          (1.0, 0.3333), (1.2, 0.3912), (1.44, 0.46944), (1.728, 0.521857),
                                          (2.074, 0.626349), (2.488, 0.751376)]
        return spaces.min { abs($0.0 - size) < abs($1.0 - size) }!.1
    }

    /// Named colours of `xcolor`/HTML that `\color` accepts, besides `#rgb`/`#rrggbb` and `rgb(…)`.
    static let colorNames: Set<String> = [
        "black", "white", "red", "green", "blue", "cyan", "magenta", "yellow", "gray", "grey", "darkgray", "lightgray",
        "brown", "lime", "olive", "orange", "pink", "purple", "teal", "violet", "maroon", "navy", "aqua", "fuchsia",
        "silver", "gold", "indigo", "darkblue", "darkred", "darkgreen", "darkorange", "lightblue", "goldenrod",
        "salmon", "tan", "turquoise", "coral", "crimson", "orchid", "plum", "khaki", "beige", "ivory", "lavender",
        "skyblue", "steelblue", "royalblue", "seagreen", "forestgreen", "firebrick", "chocolate", "sienna",
        "tomato", "hotpink", "deeppink", "slategray", "midnightblue", "Black", "White", "Red", "Green", "Blue",
        "Cyan", "Magenta", "Yellow", "Gray", "Orange", "Purple", "Brown", "Maroon", "Emerald", "RoyalBlue",
        "ForestGreen", "BrickRed", "NavyBlue", "SkyBlue", "Orchid", "Plum", "Violet", "Mahogany", "Goldenrod",
        "Fuchsia", "Apricot", "Peach", "Melon", "Salmon", "Tan", "Sepia", "Bittersweet", "Turquoise", "Aquamarine",
        "Cerulean", "Periwinkle", "Thistle", "Lavender", "Mulberry", "OliveGreen", "PineGreen", "SeaGreen",
        "JungleGreen", "TealBlue", "CadetBlue", "CornflowerBlue", "MidnightBlue", "ProcessBlue", "Dandelion",
        "YellowOrange", "BurntOrange", "RedOrange", "RedViolet", "VioletRed", "WildStrawberry", "CarnationPink",
        "RubineRed", "Rhodamine", "RawSienna", "LimeGreen", "SpringGreen", "YellowGreen", "GreenYellow",
    ]
}

extension ParserCore {
    /// Items up to the end of the current group (for switches such as `\color` and `\displaystyle`).
    mutating func parseRestOfGroup() -> [MathNode] {
        guard enterNesting(at: SourceRange(0, 0)) else { return [] }
        defer { depth -= 1 }
        return parseExpression(until: activeStops.union([.endGroup, .right, .middle, .end, .alignment, .newline, .mathShift, .closeParen]))
    }

    /// A colour argument; malformed colours are reported and kept as written.
    mutating func checkedColor(_ argument: Argument, for call: Invocation) -> String {
        let raw = (argument.raw ?? "").trimmingCharacters()
        if raw.hasPrefix("#") {
            let hex = raw.dropFirst()
            if (hex.count == 3 || hex.count == 6), hex.allSatisfy(\.isHexDigit) { return raw }
        } else if StyleCommands.colorNames.contains(raw) || raw.hasPrefix("rgb") || raw.contains("!") {
            return raw
        } else if raw.count == 6, raw.allSatisfy(\.isHexDigit) {
            return "#" + raw
        }
        warning("tex.unknown-color", "unknown colour '\(raw)' in \\\(call.name)", at: argument.range ?? call.range)
        return raw
    }
}

/// Spacing: `\, \: \> \; \! \quad \qquad \enspace \thinspace …`, `\hspace`, `\kern`, `\mkern`, `\hskip`,
/// `\mskip`, and `\ `.
enum SpacingCommands {
    /// The interword space of the text font (`\ `, `~`, `\nobreakspace`): 3.33 pt of Latin Modern Roman 10,
    /// in em.
    static let interwordSpace = 0.3333

    private static let fixed: [(String, Double)] = [
        (",", 3.0 / 18), ("thinspace", 3.0 / 18), (":", 4.0 / 18), (">", 4.0 / 18), ("medspace", 4.0 / 18),
        (";", 5.0 / 18), ("thickspace", 5.0 / 18), ("!", -3.0 / 18), ("negthinspace", -3.0 / 18),
        ("negmedspace", -4.0 / 18), ("negthickspace", -5.0 / 18), ("quad", 1), ("qquad", 2), ("enspace", 0.5),
        ("enskip", 0.5), ("nobreakspace", interwordSpace), ("space", 0.2778), ("nobreak", 0), ("allowbreak", 0),
    ]

    static let all: [CommandDefinition] = fixed.map { entry in
        let (name, width) = entry
        return CommandDefinition([name], modes: .both) { core, call in
            if name == "nobreak" || name == "allowbreak" { return nil }
            if core.mode == .text {
                // Text mode: a quad is an em space and `\nobreakspace`, `\space` the interword space, in the
                // text; `\,` `\:` `\;` `\!` keep their widths (LaTeX's \thinspace is 1/6 em in text too).
                if width >= 1 || name == "nobreakspace" || name == "space" {
                    return MathNode(.text(width >= 1 ? "\u{2003}" : " ", variant: nil), range: call.range)
                }
                return MathNode(.space(width: width), range: call.range)
            }
            return MathNode(.space(width: name == "nobreakspace" ? core.interwordSpace : width), range: call.range)
        }
    } + [
        CommandDefinition(["hspace"], [], modes: .both) { core, call in
            let star = core.next()
            if !star.isCharacter("*") { core.pushBack(star) }
            var invocation = call
            core.readArguments([.raw], into: &invocation)
            let raw = invocation.arguments[0].raw ?? ""
            guard let width = core.capSize(Dimension.parse(raw), at: invocation.arguments[0].range) else {
                core.error("tex.bad-dimension", "'\(raw)' is not a dimension such as 1em or 3pt", at: invocation.arguments[0].range)
                return nil
            }
            return MathNode(.space(width: width), range: invocation.range)
        },
        CommandDefinition(["kern", "mkern", "hskip", "mskip", "mspace"], [], modes: .both) { core, call in
            let t = core.peekNonSpace()
            var width: Double?
            var range = call.range
            if t.kind == .beginGroup {
                var invocation = call
                core.readArguments([.raw], into: &invocation)
                width = Dimension.parse(invocation.arguments[0].raw ?? "")
                range = invocation.range
            } else {
                width = core.readDimensionTokens()
            }
            width = core.capSize(width, at: range)
            guard let width else {
                core.error("tex.bad-dimension", "\\\(call.name) needs a dimension such as 1em, 3mu or 2pt", at: call.range)
                return nil
            }
            return MathNode(.space(width: width), range: range)
        },
    ]
}

/// Boxes, strikes and invisible content: `\boxed \fbox \cancel \bcancel \xcancel \sout \phase`,
/// `\phantom \hphantom \vphantom`, `\smash`, `\llap \rlap \clap \mathllap \mathrlap \mathclap`.
enum EnclosureCommands {
    private static let notations: [(String, String, ArgumentKind)] = [
        ("boxed", "box", .math), ("fbox", "box", .text), ("cancel", "updiagonalstrike", .content),
        ("bcancel", "downdiagonalstrike", .content), ("xcancel", "updiagonalstrike downdiagonalstrike", .content),
        ("sout", "horizontalstrike", .content), ("phase", "phasorangle", .math), ("angl", "actuarial", .math),
    ]

    static let all: [CommandDefinition] = notations.map { entry in
        let (name, notation, argument) = entry
        return CommandDefinition([name], [argument], modes: argument == .math ? .math : .both) { _, call in
            MathNode(.enclose(notation: notation), [call.node(0)], range: call.range)
        }
    } + [
        CommandDefinition(["phantom"], [.content], modes: .both) { _, call in
            MathNode(.phantom, [call.node(0)], range: call.range)
        },
        CommandDefinition(["hphantom"], [.content], modes: .both) { _, call in
            MathNode(.padded(PaddedProperties(height: 0, depth: 0)), [MathNode(.phantom, [call.node(0)], range: call.range)], range: call.range)
        },
        CommandDefinition(["vphantom"], [.content], modes: .both) { _, call in
            MathNode(.padded(PaddedProperties(width: 0)), [MathNode(.phantom, [call.node(0)], range: call.range)], range: call.range)
        },
        CommandDefinition(["smash"], [.optionalRaw, .content], modes: .both) { _, call in
            let which = call.arguments[0].raw ?? "tb"
            let height: Double? = which.contains("t") ? 0 : nil
            let depth: Double? = which.contains("b") ? 0 : nil
            return MathNode(.padded(PaddedProperties(height: height, depth: depth)), [call.node(1)], range: call.range)
        },
        CommandDefinition(["llap", "rlap", "clap", "mathllap", "mathrlap", "mathclap"], [.content], modes: .both) { _, call in
            let shift: Double? = call.name.hasSuffix("llap") ? -1 : call.name.hasSuffix("clap") ? -0.5 : nil
            return MathNode(.padded(PaddedProperties(width: 0, leftShiftWidths: shift)), [call.node(0)], range: call.range)
        },
    ]
}
