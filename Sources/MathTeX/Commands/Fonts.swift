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

    static let switches: [(String, MathVariant)] = [
        ("rm", .normal), ("bf", .bold), ("it", .italic), ("sf", .sansSerif), ("tt", .monospace), ("cal", .script),
        ("sl", .italic), ("sc", .normal), ("normalfont", .normal), ("boldmath", .bold), ("unboldmath", .normal),
    ]

    static let all: [CommandDefinition] = alphabets.map { entry in
        let (name, variant) = entry
        return CommandDefinition([name]) { core, call in
            let savedFont = core.font, savedMerge = core.mergeLetters
            // Upright text-like alphabets merge letters into one identifier (\mathrm{kg} is one unit name).
            core.font = (variant == .italic && name == "mathnormal") ? nil : variant
            core.mergeLetters = variant == .normal
            let node = core.parseMathArgument(for: call)
            core.font = savedFont
            core.mergeLetters = savedMerge
            return node.withRange(SourceRange.union(call.range, node.range))
        }
    } + switches.map { entry in
        let (name, variant) = entry
        return CommandDefinition([name], modes: .both) { core, _ in
            if core.mode == .math {
                core.font = variant
                core.mergeLetters = variant == .normal
            } else {
                core.textFont = variant == .normal ? nil : variant
            }
            return nil
        }
    }
}

/// Text inside math: `\text \textrm \textbf \textit \textsf \texttt \textnormal \textup \textmd \emph
/// \mbox \hbox`; the content is text mode, with `$…$` and `\(…\)` switching back to math.
enum TextCommands {
    static let variants: [(String, MathVariant?)] = [
        ("text", nil), ("textrm", nil), ("textnormal", nil), ("textmd", nil), ("mbox", nil), ("hbox", nil),
        ("textbf", .bold), ("textit", .italic), ("emph", .italic), ("textsl", .italic), ("textsf", .sansSerif),
        ("texttt", .monospace), ("textsc", nil), ("textup", nil),
    ]

    static let all: [CommandDefinition] = variants.map { entry in
        let (name, variant) = entry
        return CommandDefinition([name], modes: .both) { core, call in
            let saved = core.textFont
            if variant != nil || ["textrm", "textnormal", "textup", "textmd"].contains(name) { core.textFont = variant }
            let node = core.parseTextArgument(for: call)
            core.textFont = saved
            return node.withRange(SourceRange.union(call.range, node.range))
        }
    }
}

extension ParserCore {
    /// A text-mode argument: `{…}` (or a single token) read as text.
    mutating func parseTextArgument(for call: Invocation) -> MathNode {
        let t = nextNonSpace()
        guard t.kind == .beginGroup else {
            if t.kind == .character {
                return MathNode(.text(String(Character(t.scalar)), variant: textFont), range: t.range)
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
        func flush(_ nodes: inout [MathNode], _ font: MathVariant?) {
            if !buffer.isEmpty {
                nodes.append(MathNode(.text(buffer, variant: font), range: bufferRange))
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
                    var scalars = String.UnicodeScalarView()
                    scalars.append(first == "ı" ? "i" : first == "ȷ" ? "j" : first)
                    scalars.append(mark)
                    scalars.append(contentsOf: combined.unicodeScalars.dropFirst())
                    append(String(String(scalars).precomposedStringWithCanonicalMappingIfAvailable), t.range.union(range))
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
