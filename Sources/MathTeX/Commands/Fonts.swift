import Foundation
import MathSyntax

/// Math alphabets: `\mathbb \mathbf \mathit \mathrm \mathsf \mathtt \mathcal \mathfrak \mathscr
/// \boldsymbol \bm` and the old switches `\rm \bf \it \sf \tt \cal`. The font is applied to letters
/// as they are read (MathML `mathvariant` on each leaf), so `\mathbb{R}` is the same node as `ℝ`.
enum FontCommands {
    static let alphabets: [(String, MathVariant)] = [
        ("mathbb", .doubleStruck), ("Bbb", .doubleStruck), ("mathbf", .bold), ("bold", .bold), ("mathit", .italic),
        ("mathnormal", .italic), ("mathrm", .normal), ("mathup", .normal), ("mathsf", .sansSerif), ("mathtt", .monospace),
        ("mathcal", .script), ("mathfrak", .fraktur), ("frak", .fraktur), ("mathscr", .script),
        ("boldsymbol", .boldItalic), ("bm", .boldItalic), ("pmb", .boldItalic),
        ("mathbfit", .boldItalic), ("mathsfit", .sansSerifItalic),
    ]

    /// Old switches: (name, alphabet in math mode, font in text mode); nil leaves the font as it is.
    /// LaTeX's `\sl`, `\sc` and `\normalfont` change only the text font, and `\boldmath`/`\unboldmath`
    /// only outside math: in math mode they do nothing (LaTeX warns "invalid in math mode").
    static let switches: [(String, MathVariant?, MathVariant?)] = [
        ("rm", .normal, .normal), ("bf", .bold, .bold), ("it", .italic, .italic), ("sf", .sansSerif, .sansSerif),
        ("tt", .monospace, .monospace), ("cal", .script, .script), ("sl", nil, .italic), ("sc", nil, .normal),
        ("normalfont", nil, .normal), ("boldmath", nil, nil), ("unboldmath", nil, nil),
    ]

    static let all: [CommandDefinition] = alphabets.map { entry in
        let (name, variant) = entry
        return CommandDefinition([name]) { core, call in
            let savedFont = core.font, savedMerge = core.mergeLetters
            // Upright text-like alphabets merge letters into one identifier (\mathrm{kg} is one unit name), and so
            // does \mathit, the text italic LaTeX sets multi-letter names in (`\mathit{speed}`, `v_{\mathit{max}}`
            // are words, not products of letters: \mathnormal and plain letters are the math italic of products).
            core.font = (variant == .italic && name == "mathnormal") ? nil : variant
            core.mergeLetters = variant == .normal || name == "mathit"
            let node = core.parseMathArgument(for: call)
            core.font = savedFont
            core.mergeLetters = savedMerge
            let range = SourceRange.union(call.range, node.range)
            // `\mathrm{…}` is a group (LaTeX's math alphabets are `{\mathgroup…#1}`): an Ord atom around its
            // list, TeXbook Appendix G rule 16. Where that differs from its content alone it stays a row of
            // one node: a word (scripts after `\mathrm{Sym}` go on the word's box, rule 18a, while a script
            // inside, `\mathrm{GeV^{-1}}`, goes on its last letter), a relation or binary operator (`\mathrm{=}`
            // is spaced as a letter), a number of several digits.
            if ParserCore.differsAsOrdGroup(node) || node.isWord {
                return MathNode(.row, children: .init(node), range: range)
            }
            return node.withRange(range)
        }
    } + switches.map { entry in
        let (name, mathVariant, textVariant) = entry
        return CommandDefinition([name], modes: .both) { core, _ in
            if core.mode == .math {
                guard let mathVariant else { return nil }
                core.font = mathVariant
                core.mergeLetters = mathVariant == .normal || name == "it"
            } else if let textVariant {
                core.textFont = textVariant == .normal ? nil : textVariant
            }
            return nil
        }
    }
}

/// Text inside math: `\text \textrm \textbf \textit \textsf \texttt \textnormal \textup \textmd \emph
/// \textsl \textsc \mbox \hbox`; the content is text mode, with `$…$` and `\(…\)` switching back to math.
///
/// As in LaTeX, a font command changes one of the font's axes and keeps the others: family (`\textrm`,
/// `\textsf`, `\texttt`), series (`\textbf`, `\textmd`) and shape (`\textit`, `\textsl`, `\textup`,
/// `\textsc`), so `\textbf{\textit{u}}` is bold italic; `\textnormal` resets all three. Small capitals
/// have no MathML `mathvariant`: the text keeps its letters with `style="font-variant: small-caps"`.
enum TextCommands {
    static let names = ["text", "textrm", "textnormal", "textmd", "mbox", "hbox", "textbf", "textit", "emph", "textsl",
                        "textsf", "texttt", "textsc", "textup"]

    static let all: [CommandDefinition] = names.map { name in
        CommandDefinition([name], modes: .both) { core, call in
            let saved = core.textFont, savedCaps = core.textSmallCaps
            (core.textFont, core.textSmallCaps) = TextCommands.font(after: name, core.textFont, smallCaps: core.textSmallCaps)
            let node = core.parseTextArgument(for: call)
            core.textFont = saved
            core.textSmallCaps = savedCaps
            let range = SourceRange.union(call.range, node.range)
            if core.mode == .math, let size = core.mathTextSize {
                // After `\tiny` in math, text is tiny (the text font's size), though the math is not.
                return MathNode(.style(StyleProperties(mathSize: size)), children: .init(node), range: range)
            }
            return node.withRange(range)
        }
    }

    /// The text font (as a `mathvariant`, nil for roman upright medium) and small capitals after a
    /// font command.
    static func font(after name: String, _ current: MathVariant?, smallCaps: Bool) -> (MathVariant?, Bool) {
        enum Family { case roman, sans, mono }
        var family: Family, bold: Bool, italic: Bool
        switch current {
        case .bold?: (family, bold, italic) = (.roman, true, false)
        case .italic?: (family, bold, italic) = (.roman, false, true)
        case .boldItalic?: (family, bold, italic) = (.roman, true, true)
        case .sansSerif?: (family, bold, italic) = (.sans, false, false)
        case .boldSansSerif?: (family, bold, italic) = (.sans, true, false)
        case .sansSerifItalic?: (family, bold, italic) = (.sans, false, true)
        case .sansSerifBoldItalic?: (family, bold, italic) = (.sans, true, true)
        case .monospace?: (family, bold, italic) = (.mono, false, false)
        default: (family, bold, italic) = (.roman, false, false)
        }
        var caps = smallCaps
        switch name {
        case "textnormal": (family, bold, italic, caps) = (.roman, false, false, false)
        case "textrm": family = .roman
        case "textsf": family = .sans
        case "texttt": family = .mono
        case "textbf": bold = true
        case "textmd": bold = false
        case "textit", "textsl": (italic, caps) = (true, false)
        case "emph": (italic, caps) = (!italic, false)
        case "textup": (italic, caps) = (false, false)
        case "textsc": (italic, caps) = (false, true)
        default: break      // \text, \mbox, \hbox: the font around them
        }
        let variant: MathVariant?
        switch (family, bold, italic) {
        case (.roman, false, false): variant = nil
        case (.roman, true, false): variant = .bold
        case (.roman, false, true): variant = .italic
        case (.roman, true, true): variant = .boldItalic
        case (.sans, false, false): variant = .sansSerif
        case (.sans, true, false): variant = .boldSansSerif
        case (.sans, false, true): variant = .sansSerifItalic
        case (.sans, true, true): variant = .sansSerifBoldItalic
        case (.mono, _, _): variant = .monospace
        }
        return (variant, caps)
    }

    /// The attribute that marks text set in small capitals (`\textsc`), CSS as MathML allows it.
    static let smallCapsStyle = ["style": "font-variant: small-caps"]
}

private extension MathNode {
    /// An identifier of several characters (a word such as `\mathrm{MeV}`).
    var isWord: Bool {
        guard case .identifier(let text, _) = kind else { return false }
        var scalars = text.unicodeScalars.makeIterator()
        return scalars.next() != nil && scalars.next() != nil
    }
}

extension ParserCore {
    /// A text-mode argument: `{…}` (or a single token) read as text.
    mutating func parseTextArgument(for call: Invocation) -> MathNode {
        let t = nextNonSpace()
        guard t.kind == .beginGroup else {
            if t.kind == .character {
                return MathNode(.text(String(Character(t.scalar)), variant: textFont), range: t.range,
                                attributes: textSmallCaps ? TextCommands.smallCapsStyle : nil)
            }
            pushBack(t)
            error("tex.missing-argument", "\\\(call.name) needs a text argument in braces", at: call.range)
            return MathNode(.error(""), range: call.range)
        }
        guard enterNesting(at: t.range) else {
            skipToGroupEnd()
            return MathNode(.error("{…}"), range: t.range)
        }
        defer { depth -= 1 }
        let savedMode = mode
        mode = .text
        let items = parseTextContent(until: .endGroup)
        mode = savedMode
        let close = next()
        var end = close.range.upperBound
        if close.kind != .endGroup {
            pushBack(close)
            error("tex.missing-brace", "missing } for this {", at: t.range)
            end = items.last?.range?.upperBound ?? t.range.upperBound
        }
        if items.count == 1 { return items[0] }
        return MathNode(.row, items, range: SourceRange(t.range.lowerBound, end))
    }

    /// Text-mode content up to a stop token (not consumed).
    mutating func parseTextContent(until stop: StopSet) -> [MathNode] {
        var nodes: [MathNode] = []
        var buffer = ""
        var bufferRange: SourceRange? = nil
        let smallCaps = textSmallCaps
        func flush(_ nodes: inout [MathNode], _ font: MathVariant?) {
            if !buffer.isEmpty {
                nodes.append(MathNode(.text(buffer, variant: font), range: bufferRange,
                                      attributes: smallCaps ? TextCommands.smallCapsStyle : nil))
            }
            buffer = ""
            bufferRange = nil
        }
        func append(_ s: String, _ r: SourceRange) {
            buffer += s
            bufferRange = SourceRange.union(bufferRange, r)
        }
        loop: while true {
            let t = next()
            switch t.kind {
            case .eof:
                pushBack(t)
                break loop
            case .endGroup:
                if stop.contains(.endGroup) { pushBack(t); break loop }
                error("tex.unmatched-brace", "unmatched }", at: t.range)
            case .space:
                if !buffer.hasSuffix(" ") { append(" ", t.range) }
            case .active:
                append("\u{00A0}", t.range)
            case .character:
                let c = t.scalar
                // TeX ligatures: -- – , --- — , `` “ , '' ”
                if c == "-" || c == "`" || c == "'" {
                    let n = next()
                    if n.kind == .character, n.scalar == c {
                        if c == "-" {
                            let n2 = next()
                            if n2.kind == .character, n2.scalar == "-" { append("—", t.range.union(n2.range)); continue }
                            pushBack(n2)
                            append("–", t.range.union(n.range))
                        } else {
                            append(c == "`" ? "“" : "”", t.range.union(n.range))
                        }
                        continue
                    }
                    pushBack(n)
                    append(c == "`" ? "‘" : c == "'" ? "’" : "-", t.range)
                    continue
                }
                if c.value < 0x20 && c != "\t" && c != "\n" {
                    error("tex.invalid-character", "invalid character U+\(String(c.value, radix: 16, uppercase: true))", at: t.range)
                    continue
                }
                append(String(Character(c)), t.range)
            case .beginGroup:
                flush(&nodes, textFont)
                guard enterNesting(at: t.range) else { skipToGroupEnd(); continue }
                let saved = textFont
                let inner = parseTextContent(until: .endGroup)
                textFont = saved
                depth -= 1
                let close = next()
                if close.kind != .endGroup { pushBack(close); error("tex.missing-brace", "missing } for this {", at: t.range) }
                nodes.append(contentsOf: inner)
            case .verbatim:
                append(t.scalar == "*" ? self.name(t).replacingOccurrences(of: " ", with: "␣") : self.name(t), t.range)
            case .mathShift:
                flush(&nodes, textFont)
                nodes.append(contentsOf: parseInlineMath(opening: t, closing: .mathShift))
            case .superscript, .subscript:
                error("tex.script-in-text", "\(sourceText(t)) is only allowed in math; wrap it in $…$", at: t.range)
            case .alignment:
                if stop.contains(.alignment) { pushBack(t); break loop }
                error("tex.misplaced-alignment", "& in text", at: t.range)
            case .parameter:
                error("tex.misplaced-parameter", "# is only allowed in macro definitions", at: t.range)
            case .controlSequence:
                let name = self.name(t)
                if name == "(" {
                    flush(&nodes, textFont)
                    nodes.append(contentsOf: parseInlineMath(opening: t, closing: .closeParen))
                    continue
                }
                if name == " " { append(" ", t.range); continue }
                if name == "\\" || name == "newline" || name == "cr" { if !buffer.hasSuffix(" ") { append(" ", t.range) }; continue }
                if let s = SymbolTable.textSymbol(name) { append(s, t.range); continue }
                if let mark = SymbolTable.textAccent(name) {
                    let (base, range) = readTextAccentBase(after: t)
                    var combined = base
                    if combined.isEmpty { combined = " " }
                    let first = combined.unicodeScalars.first!
                    // A dotless ı or ȷ under an accent is written as the dotted letter when the two compose
                    // (\'\i is í, \v\j is ǰ); when they do not (\'\j: no j with acute exists), the dotless letter
                    // keeps the mark, as TeX draws it: a dotted j would show its dot under the accent.
                    let dotted: Unicode.Scalar? = first == "ı" ? "i" : first == "ȷ" ? "j" : nil
                    func accented(_ letter: Unicode.Scalar) -> String {
                        var scalars = String.UnicodeScalarView()
                        scalars.append(letter)
                        scalars.append(mark)
                        scalars.append(contentsOf: combined.unicodeScalars.dropFirst())
                        return String(String(scalars).precomposedStringWithCanonicalMappingIfAvailable)
                    }
                    var text = accented(dotted ?? first)
                    if let dotted, text.unicodeScalars.first == dotted { text = accented(first) }
                    append(text, t.range.union(range))
                    continue
                }
                if let definition = CommandRegistry.table[name], definition.modes.contains(.text) {
                    flush(&nodes, textFont)
                    var invocation = Invocation(name: name, token: t, range: t.range)
                    readArguments(definition.arguments, into: &invocation)
                    if let node = definition.build(&self, invocation) { nodes.append(node) }
                    continue
                }
                if CommandRegistry.table[name] != nil || SymbolTable.math(name) != nil {
                    error("tex.wrong-mode", "\\\(name) is a math command; wrap it in $…$ inside text", at: t.range)
                } else {
                    error("tex.unknown-command", "unknown command \\\(name) in text", at: t.range)
                }
                append("\\" + name, t.range)
            }
        }
        flush(&nodes, textFont)
        return nodes
    }

    /// The base of a text accent (`\'e`, `\'{e}`, `\"\i`).
    private mutating func readTextAccentBase(after accent: Token) -> (String, SourceRange) {
        var t = next()
        while t.kind == .space { t = next() }
        switch t.kind {
        case .character: return (String(Character(t.scalar)), t.range)
        case .controlSequence:
            if let s = SymbolTable.textSymbol(self.name(t)) { return (s, t.range) }
            pushBack(t)
            return ("", accent.range)
        case .beginGroup:
            var text = ""
            var end = t.range
            while true {
                let u = next()
                if u.kind == .endGroup { end = u.range; break }
                if u.kind == .eof { pushBack(u); error("tex.missing-brace", "missing } for this {", at: t.range); break }
                if u.kind == .character { text.unicodeScalars.append(u.scalar) }
                if u.kind == .controlSequence, let s = SymbolTable.textSymbol(self.name(u)) { text += s }
                if text.utf8.count > 64 { break }
            }
            return (text, t.range.union(end))
        default:
            pushBack(t)
            return ("", accent.range)
        }
    }

    /// Math inside text: `$…$` or `\(…\)`.
    mutating func parseInlineMath(opening: Token, closing: StopSet) -> [MathNode] {
        guard enterNesting(at: opening.range) else { return [] }
        defer { depth -= 1 }
        let savedMode = mode, savedFont = font, savedMerge = mergeLetters
        mode = .math
        font = nil
        mergeLetters = false
        let items = parseExpression(until: [closing, .endGroup])
        mode = savedMode
        font = savedFont
        mergeLetters = savedMerge
        let close = next()
        let closed = closing == .mathShift ? close.kind == .mathShift : isControlSequence(close, ")")
        if !closed {
            pushBack(close)
            error("tex.unclosed-math", "math in text opened here is not closed", at: opening.range)
        }
        return items
    }
}

extension String {
    /// NFC where Foundation is available; the combining sequence otherwise.
    var precomposedStringWithCanonicalMappingIfAvailable: String {
        #if canImport(Foundation)
        return precomposedStringWithCanonicalMapping
        #else
        return self
        #endif
    }
}
