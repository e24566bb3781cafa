import CHarfBuzz
import Foundation
import MathAloud

/// The TeX style a subformula is set in (TeXbook ch. 17): display, text, script or scriptscript,
/// cramped or not, plus a size factor from `\Large` and friends.
struct LayoutStyle {
    /// Display style (only meaningful at script level 0).
    var display: Bool
    /// 0 text/display, 1 script, 2 scriptscript.
    var level: Int
    /// Cramped (superscripts lower, TeXbook rule 18c).
    var cramped: Bool
    /// Size factor from size commands (`\Large` 1.44).
    var sizeFactor: Double

    var isDisplay: Bool { display && level == 0 }
    /// Style of superscripts (TeXbook ch. 17: D,T → S; S,SS → SS).
    var superscript: LayoutStyle { LayoutStyle(display: false, level: min(level + 1, 2), cramped: cramped, sizeFactor: sizeFactor) }
    /// Style of subscripts (cramped).
    var `subscript`: LayoutStyle { LayoutStyle(display: false, level: min(level + 1, 2), cramped: true, sizeFactor: sizeFactor) }
    /// Style of a numerator (D → T, T → S, S → SS).
    var numerator: LayoutStyle {
        isDisplay ? LayoutStyle(display: false, level: 0, cramped: cramped, sizeFactor: sizeFactor) : superscript
    }
    /// Style of a denominator (as the numerator, cramped).
    var denominator: LayoutStyle { var s = numerator; s.cramped = true; return s }
    var crampedStyle: LayoutStyle { var s = self; s.cramped = true; return s }
}

/// An item of a math list after layout: its box and what spacing and scripts need to know of it.
struct Atom {
    var box: Box
    var atomClass: AtomClass
    /// Italic correction of the last glyph (for superscripts).
    var italic: Double = 0
    /// The glyph when the atom is one math-font character (for kerning and accents).
    var glyph: UInt32? = nil
    /// A large operator (`\sum`, `\int`): subscripts tuck under by the italic correction.
    var largeOperator = false
    /// Limits go above and below when in display style (`movablelimits`).
    var movableLimits = false
    /// A horizontally stretchy operator (extensible arrows, braces).
    var stretchyHorizontal = false
    /// Spaces and kerns take no part in inter-atom spacing.
    var isSpace = false
    /// Top accent attachment (x, em) when known.
    var topAccent: Double? = nil
    /// A `\middle` delimiter waiting to be sized to its row.
    var pendingDelimiter: Unicode.Scalar? = nil
    /// A run of characters that TeX sets as separate atoms (the digits of a number): scripts attach to
    /// its last character, so they are placed as on a character (TeXbook Appendix G rule 18a).
    var endsInCharacter = false
    /// A letter of a text alphabet (`\mathrm`, `\mathbf`, `\mathit`, `\mathsf`, `\mathtt`), which
    /// unicode-math takes from the text font: not a character of the math font for italic correction.
    var textAlphabet = false

    /// Scripts on a character of the math font: the atom is still that character's noad for what comes
    /// before it.
    var scriptedCharacter = false
    /// An accent over one character: the character's italic correction (in `italic`) follows it before
    /// any atom, not only before a character (as LuaTeX sets accents, measured).
    var accentedCharacter = false
    /// A letter of the text italic face (`\mathit`): its box includes its italic correction (in `italic`),
    /// the kern TeX puts after it, which goes again when another such letter follows (TeX drops it in
    /// mid-word for a text font, tex.web §755) and under a subscript.
    var textItalicLetter = false

    /// Whether the atom is (the noad of) one character of the math font, as TeX sees it: a digit run
    /// starts with one; an Inner atom (`\ldots` is `\mathinner{…}`) never is.
    var isMathCharacter: Bool {
        atomClass != .inner && !textAlphabet && (glyph != nil || endsInCharacter || scriptedCharacter)
    }

    /// The atom around another box, every other field as it is (a field added later is kept too).
    /// Consuming: where the caller is done with the atom, nothing is copied.
    consuming func with(box newBox: Box) -> Atom {
        var copy = self
        copy.box = newBox
        return copy
    }
}

/// One glyph laid out: its box, its metrics (em at size 1) and its id.
struct GlyphBox {
    var box: Box
    var metrics: GlyphMetrics
    var glyph: UInt32
}

/// Lays out a ``MathNode`` tree into a ``Box`` tree following the TeXbook's Appendix G, with the
/// font's OpenType MATH constants in place of TeX's font dimensions (as LuaTeX and MathML Core do).
struct MathLayout {
    let fonts: FontSet
    let math: MathFont
    let c: MathConstants
    /// What one layout counts as it goes: the automatic equation number of numbered environments, and
    /// the characters no loaded font has, each once, in the order they were met (written only when one
    /// is missing: the common path stores nothing). One object, so a layout allocates one.
    final class Counter {
        var equation = 0
        var missingScalars: [UInt32] = []
    }
    let counter = Counter()
    /// The colour of input that did not parse (error nodes).
    var errorColor = RGBAColor(red: 0.8, green: 0, blue: 0)
    /// Equation numbers at the left margin (LaTeX's `leqno`) instead of the right.
    var tagsOnLeft = false

    init(fonts: FontSet) {
        self.fonts = fonts
        self.math = fonts.math
        self.c = fonts.math.constants
    }

    /// The size of the current style relative to the base size.
    func scale(_ s: LayoutStyle) -> Double {
        let base: Double
        switch s.level {
        case 0: base = 1
        case 1: base = c.scriptPercentScaleDown
        default: base = c.scriptScriptPercentScaleDown
        }
        return base * s.sizeFactor
    }

    // MARK: - Dispatch

    func layout(_ node: MathNode, _ s: LayoutStyle) -> Atom {
        switch node.kind {
        case .row:
            if let declared = node.declaredAtomClass {
                // `\mathop{…}`, `\mathrel{…}` of a list: the list's box as an atom of that class (its nucleus
                // is not a character: no italic correction, scripts on the box, rule 18a).
                var a = group(row(node.children, s))
                a.atomClass = declared
                if declared == .op, node.children.count == 1, MathLayout.isCharacter(node.children[0]) {
                    // Rule 13: an Op atom whose nucleus is a character is centred on the axis (`\mathop{z}`: the
                    // group of one Ord character gives its character back as the nucleus, tex.web §1186).
                    let shift = (a.box.depth - a.box.height) / 2 + c.axisHeight * scale(s)
                    let inner = a.box
                    a.box = Box(width: inner.width, height: inner.height + shift, depth: inner.depth - shift, content: .list("op"),
                                children: [Box.Placed(x: 0, y: shift, box: inner)])
                }
                return a
            }
            if node.children.count == 1, MathLayout.isOrdGroup(node.children[0]) { return group(layout(node.children[0], s)) }
            return row(node.children, s)
        case .tableRow, .tableCell:
            return row(node.children, s)
        case let .identifier(text, variant):
            return identifier(text, variant: variant, s)
        case let .number(text, variant):
            var a = glyphRun(text, variant: variant, italicLetters: false, s, cls: .ord)
            a.endsInCharacter = true
            return a
        case let .operator(text, p):
            return operatorAtom(text, p, s)
        case let .text(text, variant):
            return textRun(text, variant: variant, s, smallCaps: node.attributes?["style"]?.contains("small-caps") == true)
        case let .space(width):
            if let rule = node.attributes?["rule"], let h = MathLayout.length(rule) {
                // \rule{width}{height}: a filled box on the baseline.
                return Atom(box: Box(width: max(0, width) * s.sizeFactor, height: max(0, h) * s.sizeFactor, depth: 0, content: .rule), atomClass: .ord)
            }
            // The thin, medium and thick math spaces and their negatives (3, 4, 5 mu) scale with the
            // script size; the parser does not yet say which spaces are in mu (see the note below).
            let magnitude = abs(width)
            let mu = abs(magnitude - 3.0 / 18) < 0.001 || abs(magnitude - 4.0 / 18) < 0.001 || abs(magnitude - 5.0 / 18) < 0.001
            let w = mu ? width * scale(s) : width * s.sizeFactor
            return Atom(box: .empty(width: w), atomClass: .ord, isSpace: true)
        case let .fraction(p):
            return fraction(node, p, s)
        case .squareRoot:
            return radical(radicand: row(node.children, s.crampedStyle).box, degree: nil, s)
        case .root:
            let degree = node.children.count > 1 ? layout(node.children[1], LayoutStyle(display: false, level: 2, cramped: true, sizeFactor: s.sizeFactor)).box : nil
            return radical(radicand: node.children.first.map { layout($0, s.crampedStyle).box } ?? .empty(), degree: degree, s)
        case .subscript:
            return scripts(node.children[safe: 0], sub: node.children[safe: 1], sup: nil, s)
        case .superscript:
            return scripts(node.children[safe: 0], sub: nil, sup: node.children[safe: 1], s)
        case .subSuperscript:
            return scripts(node.children[safe: 0], sub: node.children[safe: 1], sup: node.children[safe: 2], s)
        case let .under(p):
            return underOver(node.children[safe: 0], under: node.children[safe: 1], over: nil, p, s)
        case let .over(p):
            return underOver(node.children[safe: 0], under: nil, over: node.children[safe: 1], p, s)
        case let .underOver(p):
            return underOver(node.children[safe: 0], under: node.children[safe: 1], over: node.children[safe: 2], p, s)
        case let .multiscripts(prescriptPairs):
            return multiscripts(node, prescriptPairs: prescriptPairs, s)
        case .none:
            return Atom(box: .empty(), atomClass: .ord, isSpace: true)
        case let .fenced(open, close):
            return fenced(node.children, open: open, close: close, s)
        case let .table(p):
            return table(node, p, s)
        case let .enclose(notation):
            return enclose(node.children, notation: notation, s)
        case let .style(p):
            return styled(node.children, p, s)
        case .phantom:
            var a = row(node.children, s)
            a.box = a.box.wrapped(.phantom)
            a.glyph = nil
            return a
        case let .padded(p):
            return padded(node.children, p, s)
        case let .error(text):
            var a = textRun(text.isEmpty ? "?" : text, variant: nil, s)
            a.box = a.box.wrapped(.color(errorColor))
            return a
        case .semantics:
            return node.children.first.map { layout($0, s) } ?? Atom(box: .empty(), atomClass: .ord)
        }
    }

    /// Whether a node is one letter or digit of the math font (a `math_char` nucleus in TeX's terms).
    static func isCharacter(_ node: MathNode) -> Bool {
        switch node.kind {
        case let .identifier(text, _), let .number(text, _): return text.isOneScalar
        default: return false
        }
    }

    /// Whether the only child of a row is set differently as a braced group than alone: TeX makes a
    /// group an Ord atom whose nucleus is its list (TeXbook ch. 17, Appendix G rule 16) and gives back
    /// the character only for a group of one Ord character (tex.web §1186). So a relation, binary
    /// operator, punctuation, large operator or function name in braces (`{=}`, `{+}`, `{\sum}`,
    /// `{\log_{10}}`) is ordinary, and a number or word in braces (`{10}^{14}`, `\mathrm{Sym}_N`) takes
    /// scripts on its box.
    static func isOrdGroup(_ node: MathNode) -> Bool {
        switch node.kind {
        case let .operator(text, p): return p.atomClass != .ord && !p.fence || !text.isOneScalar
        case let .number(text, _), let .identifier(text, _): return !text.isOneScalar
        case .subscript, .superscript, .subSuperscript, .under, .over, .underOver:
            return node.children.first.map(isOrdGroup) ?? false
        case .space: return true      // `~`, LaTeX's `\nobreakspace{}`: the space and an empty Ord group
        default: return false
        }
    }

    /// An atom as the nucleus of an Ord atom that is a list (a braced group): Ord, a box to scripts (not a
    /// character, so rule 18a's box rule), no italic correction, no limits.
    func group(_ inner: consuming Atom) -> Atom {
        var a = inner
        a.atomClass = .ord
        a.isSpace = false
        a.glyph = nil
        a.italic = 0
        a.largeOperator = false
        a.movableLimits = false
        a.stretchyHorizontal = false
        a.endsInCharacter = false
        a.scriptedCharacter = false
        a.accentedCharacter = false
        a.textAlphabet = false
        a.textItalicLetter = false
        a.topAccent = nil
        return a
    }

    // MARK: - Characters

    /// The glyph box of one math-font character at the style's size (script forms via `ssty`).
    func glyphBox(_ scalar: UInt32, _ s: LayoutStyle, role: FontRole = .math) -> GlyphBox {
        let size = scale(s)
        // The common case, a character the math font has: its metrics are read from the math face in
        // place, with no face looked up and held (fonts.face(_:) handed back a retained reference for
        // each of some fourteen glyphs a formula; MathAloudBench render-svg-profile, callgrind).
        if role == .math, let glyph = math.glyph(for: scalar, scriptLevel: s.level), glyph != 0 {
            let m = math.face.metrics(glyph)
            let box = Box(width: m.advance * size, height: m.height * size, depth: m.depth * size,
                          glyph: GlyphRef(font: .math, glyph: glyph, size: size, character: scalar), metrics: m)
            return GlyphBox(box: box, metrics: m, glyph: glyph)
        }
        var face = fonts.face(role)
        var role = role
        var glyph: UInt32
        if role == .math {
            glyph = math.glyph(for: scalar, scriptLevel: s.level) ?? 0
            if glyph == 0, let alt = fallbackScalar(scalar), let g = math.glyph(for: alt, scriptLevel: s.level) { glyph = g }
        } else {
            glyph = face.glyph(for: scalar) ?? 0
        }
        if glyph == 0 {
            // Neither font has it: the fallback face draws it when it can, else it is reported (and the
            // font's .notdef, blank in the math fonts, keeps its place).
            if let fallback = fonts.fallbackFace, let g = fallback.glyph(for: scalar) {
                (face, role, glyph) = (fallback, .textFallback, g)
            } else if !counter.missingScalars.contains(scalar) {
                counter.missingScalars.append(scalar)
            }
        }
        let m = face.metrics(glyph)
        let box = Box(width: m.advance * size, height: m.height * size, depth: m.depth * size,
                      glyph: GlyphRef(font: role, glyph: glyph, size: size, character: scalar), metrics: m)
        return GlyphBox(box: box, metrics: m, glyph: glyph)
    }

    /// A character the font may have instead (ASCII forms of math symbols).
    private func fallbackScalar(_ s: UInt32) -> UInt32? {
        switch s {
        case 0x2D: return 0x2212
        case 0x2C9, 0xAF: return 0x305
        case 0x2032: return 0x27
        default:
            if let u = Unicode.Scalar(s), let d = UnicodeMath.decompose(u) { return d.base.value }
            return nil
        }
    }

    /// The character a TeX letter is drawn with: italic Latin and lowercase Greek by default (TeX's
    /// math-style), else the variant's alphabet.
    func mathScalar(_ u: Unicode.Scalar, variant: MathVariant?, italicDefault: Bool) -> UInt32 {
        var v = variant
        if v == nil, italicDefault {
            switch u.value {
            case 0x41...0x5A, 0x61...0x7A, 0x3B1...0x3C9, 0x3D1, 0x3D5, 0x3D6, 0x3F0, 0x3F1, 0x3F5, 0x2202, 0x131, 0x237:
                v = .italic
            default: break
            }
        }
        guard let variant = v, variant != .normal else { return u.value }
        if u.value < 0x80 { return MathLayout.styledASCII[MathLayout.alphabetIndex(variant) << 7 | Int(u.value)] }
        return UnicodeMath.styled(u, variant)?.value ?? u.value
    }

    /// ``UnicodeMath/styled(_:_:)`` of every ASCII character in every alphabet (the character itself
    /// where the alphabet has none), 128 per alphabet in ``alphabetIndex(_:)`` order, read once.
    static let styledASCII: [UInt32] = MathVariant.allCases.sorted { alphabetIndex($0) < alphabetIndex($1) }.flatMap { variant in
        (0..<0x80).map { (x: UInt32) in UnicodeMath.styled(Unicode.Scalar(x)!, variant)?.value ?? x }
    }

    /// A number for each alphabet, 0…13 (a switch, not a hash).
    static func alphabetIndex(_ variant: MathVariant) -> Int {
        switch variant {
        case .normal: return 0
        case .bold: return 1
        case .italic: return 2
        case .boldItalic: return 3
        case .doubleStruck: return 4
        case .boldFraktur: return 5
        case .script: return 6
        case .boldScript: return 7
        case .fraktur: return 8
        case .sansSerif: return 9
        case .boldSansSerif: return 10
        case .sansSerifItalic: return 11
        case .sansSerifBoldItalic: return 12
        case .monospace: return 13
        }
    }

    func identifier(_ text: String, variant: MathVariant?, _ s: LayoutStyle) -> Atom {
        if text.isOneScalar {
            // unicode-math takes `\mathrm`, `\mathbf`, `\mathit`, `\mathsf`, `\mathtt` letters from the text
            // fonts: no italic correction (an OpenType text font has none), and `\mathit` letters are the
            // text italic's, narrower than the math italic's.
            // (The alphabet is tested before the letter: Unicode's Alphabetic property is a table search, and
            // most letters have no alphabet. MathAloudBench render: 2.2 k of 37 k instructions per formula.)
            if MathLayout.hasTextFaceAlphabet(variant), let u = text.unicodeScalars.first, u.properties.isAlphabetic,
               let a = textAlphabetLetter(u, variant, s) { return a }
            var a = glyphRun(text, variant: variant, italicLetters: true, s, cls: .ord)
            a.atomClass = .ord
            switch variant {
            case .normal?, .bold?, .italic?, .sansSerif?, .monospace?:
                a.textAlphabet = true
                a.italic = 0
            default: break
            }
            return a
        }
        // A word in a text alphabet (`\mathit{speed}`, one identifier since the parser merges its letters):
        // its letters from the text face, kerned as the row of those letters is (the text italic's
        // corrections between them taken back), a group in TeX, an Ord atom (rule 16).
        if MathLayout.hasTextFaceAlphabet(variant), let word = textAlphabetWord(text, variant, s) { return word }
        // A multi-letter name (`sin`, `\operatorname{tr}`) is upright and spaced as an operator; a word
        // in an alphabet (`\mathrm{MeV}`) is a group in TeX, an Ord atom (TeXbook Appendix G rule 16).
        var a = nameRun(text, variant: variant ?? .normal, s, cls: variant == nil ? .op : .ord)
        a.glyph = nil
        // The letters of a word are characters to TeX: a script on the word (`\mathrm{GeV^{-1}}`) goes on
        // the last one (rule 18a). (A script after the word's group, `\mathrm{Sym}_N`, has the group as its
        // base: the parser keeps the group, see `isOrdGroup`.) They are text-font letters, not math-font
        // characters, for italic correction.
        a.endsInCharacter = variant != nil
        a.textAlphabet = variant != nil
        return a
    }

    /// Whether ``textAlphabetLetter(_:_:_:)`` may take a letter of this alphabet from a text face.
    @inline(__always) static func hasTextFaceAlphabet(_ variant: MathVariant?) -> Bool {
        switch variant {
        case .italic?, .sansSerif?, .monospace?: return true
        default: return false
        }
    }

    /// A `\mathit`, `\mathsf` or `\mathtt` letter from the text face unicode-math takes it from (nil when
    /// there is none or it lacks the letter): a character to scripts (rule 18a). (`\mathbf` and `\mathrm`
    /// letters stay the math font's, which agree with the text faces' within 0.2 %.)
    func textAlphabetLetter(_ u: Unicode.Scalar, _ variant: MathVariant?, _ s: LayoutStyle) -> Atom? {
        let face: FontRole
        switch variant {
        case .italic?: face = .textItalic
        case .sansSerif?: face = .textSans
        case .monospace?: face = .textMono
        default: return nil
        }
        let role = fonts.textRole(face, scriptLevel: s.level)
        guard fonts.hasTextFace(face), fonts.face(role).glyph(for: u.value) != nil else { return nil }
        let g = glyphBox(u.value, s, role: role)
        // The text face has no italic corrections: LuaTeX's font loader makes them for an italic text font
        // (its `itlc` feature) as the ink beyond the advance plus half the underline thickness (0.02 em in
        // Latin Modern), when that is positive; an upright face has none.
        let italic = face == .textItalic ? max(0, g.metrics.inkRight - g.metrics.advance + 0.02) * scale(s) : 0
        var box = g.box
        box.width += italic
        var a = Atom(box: box, atomClass: .ord, italic: italic)
        a.endsInCharacter = true
        a.textAlphabet = true
        a.textItalicLetter = face == .textItalic
        return a
    }

    /// A word of letters each in ``textAlphabetLetter(_:_:_:)``'s text face, as a row; nil when one is
    /// not a letter or the face lacks it.
    func textAlphabetWord(_ text: String, _ variant: MathVariant?, _ s: LayoutStyle) -> Atom? {
        var letters: [Atom] = []
        letters.reserveCapacity(text.utf8.count)
        for u in text.unicodeScalars {
            guard u.properties.isAlphabetic, let a = textAlphabetLetter(u, variant, s) else { return nil }
            letters.append(a)
        }
        var a = assemble(letters, s)
        a.atomClass = .ord
        a.endsInCharacter = true
        a.textAlphabet = true
        return a
    }

    /// The letters of a name (`\operatorname{arg\,max}`, `lim`): a space in it is the name's `\,`, a thin
    /// space (3 mu), not the font's space character.
    func nameRun(_ text: String, variant: MathVariant?, _ s: LayoutStyle, cls: AtomClass) -> Atom {
        guard text.contains(" ") else { return glyphRun(text, variant: variant, italicLetters: false, s, cls: cls) }
        var items: [Atom] = []
        for (k, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if k > 0 { items.append(Atom(box: .empty(width: 3 * scale(s) / 18), atomClass: .ord, isSpace: true)) }
            if !word.isEmpty { items.append(glyphRun(String(word), variant: variant, italicLetters: false, s, cls: .ord)) }
        }
        var a = assemble(items, s, name: "chars")
        a.atomClass = cls
        a.glyph = nil
        return a
    }

    /// A run of math-font characters, one glyph each.
    func glyphRun(_ text: String, variant: MathVariant?, italicLetters: Bool, _ s: LayoutStyle, cls: AtomClass) -> Atom {
        let size = scale(s)
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return Atom(box: HListBuilder(capacity: 0).box("chars"), atomClass: cls) }
        let g = glyphBox(mathScalar(first, variant: variant, italicDefault: italicLetters), s)
        guard let second = scalars.next() else {
            // One character: the glyph itself, with what kerning and accents need of it.
            return Atom(box: g.box, atomClass: cls, italic: g.metrics.italicCorrection * size, glyph: g.glyph,
                        topAccent: g.metrics.topAccentAttachment * size)
        }
        var list = HListBuilder(capacity: text.utf8.count)
        list.append(g.box)
        var last = glyphBox(mathScalar(second, variant: variant, italicDefault: italicLetters), s)
        list.append(last.box)
        while let u = scalars.next() {
            last = glyphBox(mathScalar(u, variant: variant, italicDefault: italicLetters), s)
            list.append(last.box)
        }
        return Atom(box: list.box("chars"), atomClass: cls, italic: last.metrics.italicCorrection * size)
    }

    /// Text (`\text`, `\mathrm` words in `mtext`) shaped in the text font.
    func textRun(_ text: String, variant: MathVariant?, _ s: LayoutStyle, smallCaps: Bool = false) -> Atom {
        let baseRole: FontRole
        switch variant {
        case _ where smallCaps: baseRole = .textSmallCaps
        case .bold?: baseRole = .textBold
        case .italic?: baseRole = .textItalic
        case .boldItalic?: baseRole = .textBoldItalic
        case .sansSerif?: baseRole = .textSans
        case .boldSansSerif?: baseRole = .textSansBold
        case .sansSerifItalic?: baseRole = .textSansItalic
        case .sansSerifBoldItalic?: baseRole = .textSansBoldItalic
        case .monospace?: baseRole = .textMono
        default: baseRole = .text
        }
        let usesMath = !fonts.hasTextFace(baseRole) && !fonts.hasTextFace(.text)
        let role = fonts.textRole(baseRole, scriptLevel: s.level)
        let face = fonts.face(role)
        let size = scale(s)
        var items: [Box.Placed] = []
        var x = 0.0, h = 0.0, d = 0.0
        let scalars = Array(text.unicodeScalars.prefix(4096))
        // Runs the text font can draw are shaped with it (kerning, ligatures); characters it lacks
        // (math alphanumerics, symbols) come from the math font one by one.
        var i = 0
        while i < scalars.count {
            // (Without text faces `face` is the math font's; a character it lacks goes to `glyphBox`, which
            // draws it from the fallback face or reports it.) A precomposed letter the face lacks whose
            // canonical decomposition it has (ȧ, ẋ: a letter and U+0307) is shaped with it: HarfBuzz
            // decomposes it and puts the mark on the letter.
            let drawable = { (u: Unicode.Scalar) -> Bool in
                if face.glyph(for: u.value) != nil || u.properties.isWhitespace { return true }
                guard u.value >= 0xC0, u.properties.canonicalCombiningClass == .notReordered else { return false }
                let parts = String(u).decomposedStringWithCanonicalMapping.unicodeScalars
                return parts.count > 1 && parts.allSatisfy { face.glyph(for: $0.value) != nil }
            }
            var j = i
            let inText = drawable(scalars[i])
            while j < scalars.count, drawable(scalars[j]) == inText { j += 1 }
            if inText {
                var run = ""
                run.unicodeScalars.append(contentsOf: scalars[i..<j])
                // The glyph before, for a combining mark the shaper left where it was (x, advance, height, em).
                var base: (x: Double, advance: Double, height: Double)? = nil
                for g in face.shape(run) {
                    let m = face.metrics(g.glyph)
                    let box = Box(width: g.advance * size, height: m.height * size, depth: m.depth * size,
                                  glyph: GlyphRef(font: usesMath ? .math : role, glyph: g.glyph, size: size, character: 0), metrics: m)
                    var dx = g.xOffset * size, dy = g.yOffset * size
                    if g.advance == 0, g.xOffset == 0, g.yOffset == 0, m.inkRight > m.inkLeft, m.inkRight <= 0.001,
                       let b = base, b.advance > 0 {
                        // A combining mark (\'\j, \.A: ȷ or A and a mark) the font has no anchor for: its ink,
                        // which lies left of its origin, is centred over the letter's box as TeX centres an
                        // \accent, and a mark above is raised by what the letter stands above the x-height.
                        dx = b.x + b.advance / 2 - x - (m.inkLeft + m.inkRight) / 2 * size
                        if m.inkBottom > 0, let xHeight = face.xHeight { dy = max(0, b.height - xHeight * size) }
                    }
                    items.append(Box.Placed(x: x + dx, y: dy, box: box))
                    h = max(h, box.height + dy)
                    d = max(d, box.depth - dy)
                    if g.advance > 0 { base = (x, g.advance * size, box.height) }
                    x += g.advance * size
                }
            } else {
                for u in scalars[i..<j] {
                    let g = glyphBox(u.value, s)
                    items.append(Box.Placed(x: x, y: 0, box: g.box))
                    h = max(h, g.box.height)
                    d = max(d, g.box.depth)
                    x += g.box.width
                }
            }
            i = j
        }
        return Atom(box: Box(width: x, height: h, depth: d, content: .list("text"), children: items), atomClass: .ord)
    }

    // MARK: - Operators and delimiters

    /// Characters the parser writes that the math font draws as another character.
    static func operatorScalar(_ u: Unicode.Scalar) -> UInt32 {
        switch u.value {
        case 0x2D: return 0x2212   // hyphen-minus → minus sign
        case 0x2A: return 0x2217   // * → asterisk operator
        default: return u.value
        }
    }

    func operatorAtom(_ text: String, _ p: OperatorProperties, _ s: LayoutStyle) -> Atom {
        if p.atomClass == .bin, text == "mod" {
            // amsmath's \bmod: 5mu on each side in every style (its own glue cancels the Bin spacing).
            let mu = scale(s) / 18
            let word = glyphRun(text, variant: .normal, italicLetters: false, s, cls: .ord).box
            return Atom(box: Box.hlist("bmod", [(word, 0)], kerns: [5 * mu]).padded(right: 5 * mu), atomClass: .ord)
        }
        guard text.isOneScalar, let character = text.unicodeScalars.first else {
            // A named operator (`lim`, `max`): upright letters; a space inside (`arg\,min`) is a thin space.
            var a = nameRun(text, variant: .normal, s, cls: p.atomClass)
            a.glyph = nil
            a.movableLimits = p.movableLimits
            a.largeOperator = false
            return a
        }
        var scalar = MathLayout.operatorScalar(character)
        // unicode-math's mathcode of `:` is U+2236 RATIO (a relation): its script form keeps the colon's
        // width, where the ASCII colon's is wider. (`\colon`, punctuation, is the ASCII colon.)
        if scalar == 0x3A, p.atomClass == .rel, math.face.glyph(for: 0x2236) != nil { scalar = 0x2236 }
        if scalar == 0x3A, p.atomClass == .punct, p.size == nil {
            // amsmath's \colon: 2mu, the colon, 6mu (its punctuation spacing cancelled by a kern).
            let mu = scale(s) / 18
            let g = glyphBox(scalar, s)
            return Atom(box: .hlist("colon", [(g.box, 0)], kerns: [2 * mu]).padded(right: 6 * mu), atomClass: .ord)
        }
        if let size = p.size {
            // \big… : the first size variant at least this tall, centred on the axis.
            // amsmath's \big… is `\left( \vcenter to S{} \right.`: an empty box S tall on the axis
            // (S = 1.195, 1.793, 2.391, 2.989 em for \big, \Big, \bigg, \Bigg) and a delimiter sized by
            // rule 19 for it; the box is as tall as the larger of the two.
            // The \hbox starts a new formula in text style: in a script too, the delimiter is text-size
            // and centred on the text axis.
            let strut = size * 0.99625 * s.sizeFactor
            let text = LayoutStyle(display: false, level: 0, cramped: false, sizeFactor: s.sizeFactor)
            var a = delimiter(scalar, targetTotal: max(strut * 0.901, strut - 0.5 * s.sizeFactor), text)
            let axis = c.axisHeight * scale(text)
            a.box.height = max(a.box.height, strut / 2 + axis)
            a.box.depth = max(a.box.depth, strut / 2 - axis)
            a.atomClass = p.atomClass
            return a
        }
        if p.largeOperator {
            return largeOperator(scalar, p, s)
        }
        let g = glyphBox(scalar, s)
        let size = scale(s)
        return Atom(box: g.box, atomClass: p.atomClass, italic: g.metrics.italicCorrection * size, glyph: g.glyph,
                    movableLimits: p.movableLimits, stretchyHorizontal: p.stretchy,
                    topAccent: g.metrics.topAccentAttachment * size)
    }

    /// A large operator: in display style the first variant at least `DisplayOperatorMinHeight` tall
    /// (TeXbook rule 13), centred on the axis.
    func largeOperator(_ scalar: UInt32, _ p: OperatorProperties, _ s: LayoutStyle) -> Atom {
        let size = scale(s)
        guard var glyph = math.glyph(for: scalar, scriptLevel: s.level) else {
            var a = operatorAtom(String(Character(Unicode.Scalar(scalar) ?? "?")), OperatorProperties(atomClass: .op), s)
            a.largeOperator = true
            return a
        }
        if s.isDisplay {
            let minHeight = c.displayOperatorMinHeight
            let variants = math.variants(glyph, vertical: true)
            if let v = variants.first(where: { $0.advance >= minHeight && $0.glyph != glyph }) ?? variants.last {
                glyph = v.glyph
            }
        }
        let m = math.face.metrics(glyph)
        let h = m.height * size, d = m.depth * size
        let shift = (d - h) / 2 + c.axisHeight * size
        let box = Box(width: m.advance * size, height: h + shift, depth: d - shift, content: .list("op"),
                      children: [Box.Placed(x: 0, y: shift, box: Box(width: m.advance * size, height: h, depth: d,
                                  glyph: GlyphRef(font: .math, glyph: glyph, size: size, character: scalar), metrics: m))])
        return Atom(box: box, atomClass: .op, italic: m.italicCorrection * size, glyph: glyph, largeOperator: true,
                    movableLimits: p.movableLimits)
    }

    /// A vertical delimiter at least `targetTotal` (height + depth, em) tall, centred on the axis:
    /// the first size variant that is tall enough, else the glyph assembly (TeXbook rule 19 with
    /// OpenType MATH variants).
    func delimiter(_ scalar: UInt32, targetTotal: Double, _ s: LayoutStyle) -> Atom {
        let size = scale(s)
        let axis = c.axisHeight * size
        guard scalar != 0, scalar != 0x2E, let base = math.glyph(for: scalar, scriptLevel: 0) else {
            // `\left.`: an empty box of \nulldelimiterspace.
            return Atom(box: .empty(width: 0.12 * s.sizeFactor), atomClass: .ord)
        }
        let target = targetTotal / size
        let variants = math.variants(base, vertical: true)
        var inner: Box
        var italic = 0.0
        if let v = variants.first(where: { $0.advance >= target }) {
            let m = math.face.metrics(v.glyph)
            inner = Box(width: m.advance * size, height: m.height * size, depth: m.depth * size,
                        glyph: GlyphRef(font: .math, glyph: v.glyph, size: size, character: scalar), metrics: m)
            italic = m.italicCorrection * size
        } else if let assembled = assembly(base, vertical: true, target: target, size: size, scalar: scalar) {
            inner = assembled
        } else {
            let g = variants.last?.glyph ?? base
            let m = math.face.metrics(g)
            inner = Box(width: m.advance * size, height: m.height * size, depth: m.depth * size,
                        glyph: GlyphRef(font: .math, glyph: g, size: size, character: scalar), metrics: m)
        }
        let total = inner.height + inner.depth
        let shift = axis - (inner.height - inner.depth) / 2
        let box = Box(width: inner.width, height: total / 2 + axis, depth: total / 2 - axis, content: .list("delim"),
                      children: [Box.Placed(x: 0, y: shift, box: inner)])
        return Atom(box: box, atomClass: .ord, italic: italic)
    }

    /// A glyph assembly (OpenType `GlyphAssembly`) of at least `target` em (font size 1) along the
    /// stretch direction; parts overlap by at least `MinConnectorOverlap`. Nil when the glyph has none.
    func assembly(_ glyph: UInt32, vertical: Bool, target: Double, size: Double, scalar: UInt32) -> Box? {
        let parts = math.assembly(glyph, vertical: vertical)
        guard !parts.isEmpty else { return nil }
        let overlap = c.minConnectorOverlap
        // The parts with each extender repeated n times; its longest length (the least overlap) is
        // summed in the order of that list without building it.
        func maxLength(repeats n: Int) -> Double {
            var sum = 0.0, count = 0
            for p in parts {
                if p.isExtender {
                    for _ in 0..<n { sum += p.fullAdvance }
                    count += n
                } else {
                    sum += p.fullAdvance
                    count += 1
                }
            }
            return sum - Double(max(0, count - 1)) * overlap
        }
        var repeats = 0
        if parts.contains(where: \.isExtender) {
            while maxLength(repeats: repeats) < target, repeats < 256 { repeats += 1 }
        }
        var list: [GlyphPart] = []
        for p in parts {
            if p.isExtender { list.append(contentsOf: repeatElement(p, count: repeats)) } else { list.append(p) }
        }
        guard !list.isEmpty else { return nil }
        // Spread the overlap so the assembly is exactly as long as asked (bounded by the connectors).
        var o = overlap
        if list.count > 1 {
            let natural = list.reduce(0) { $0 + $1.fullAdvance }
            var maxOverlap = Double.infinity
            for i in 0..<(list.count - 1) { maxOverlap = min(maxOverlap, list[i].endConnector, list[i + 1].startConnector) }
            o = max(overlap, min(maxOverlap, (natural - target) / Double(list.count - 1)))
        }
        var children: [Box.Placed] = []
        var pos = 0.0
        var crossMax = 0.0, inkH = 0.0, inkD = 0.0
        for (i, p) in list.enumerated() {
            if i > 0 { pos -= o }
            let m = math.face.metrics(p.glyph)
            let ref = GlyphRef(font: .math, glyph: p.glyph, size: size, character: 0)
            if vertical {
                // Parts stack bottom to top; each part's ink bottom sits at the running position.
                let y = (pos + m.depth) * size
                let box = Box(width: m.advance * size, height: m.height * size, depth: m.depth * size, glyph: ref, metrics: m)
                children.append(Box.Placed(x: 0, y: y, box: box))
                crossMax = max(crossMax, m.advance * size)
            } else {
                let box = Box(width: m.advance * size, height: m.inkTop * size, depth: -m.inkBottom * size, glyph: ref, metrics: m)
                children.append(Box.Placed(x: pos * size, y: 0, box: box))
                inkH = i == 0 ? m.inkTop * size : max(inkH, m.inkTop * size)
                inkD = i == 0 ? -m.inkBottom * size : max(inkD, -m.inkBottom * size)
            }
            pos += p.fullAdvance
        }
        if vertical {
            return Box(width: crossMax, height: pos * size, depth: 0, content: .list("assembly"), children: children)
        }
        return Box(width: pos * size, height: inkH, depth: inkD, content: .list("assembly"), children: children)
    }

    /// A horizontally stretched glyph for a width (em at the current size). With `cover` (extensible
    /// arrows) the first size variant at least that wide, else the assembly. Without (wide accents and
    /// braces, TeXbook rule 12) the widest variant that does not exceed the width, and the assembly
    /// only when even the widest variant is narrower. Nil when the glyph is missing.
    func horizontalStretch(_ scalar: UInt32, width: Double, _ s: LayoutStyle, cover: Bool = false) -> Atom? {
        let size = scale(s)
        guard let base = math.glyph(for: scalar, scriptLevel: 0) else { return nil }
        let target = width / size
        var variants = math.variants(base, vertical: false)
        if variants.isEmpty { variants = [GlyphVariant(glyph: base, advance: math.face.metrics(base).advance)] }
        func single(_ glyph: UInt32) -> Atom {
            // Signed ink extents: a brace drawn above its baseline has a negative depth, so it can be
            // placed by its ink.
            let m = math.face.metrics(glyph)
            let box = Box(width: m.advance * size, height: m.inkTop * size, depth: -m.inkBottom * size,
                          glyph: GlyphRef(font: .math, glyph: glyph, size: size, character: scalar), metrics: m)
            return Atom(box: box, atomClass: .ord, glyph: glyph, topAccent: m.topAccentAttachment * size)
        }
        if cover {
            // An extensible arrow is as wide as asked, as \cleaders fill it in TeX: the glyph when it is
            // wide enough, else the assembly at exactly that width, else the first variant wide enough.
            if math.face.metrics(base).advance >= target { return single(base) }
            if math.assembly(base, vertical: false).isEmpty, let v = variants.first(where: { $0.advance >= target }) {
                return single(v.glyph)
            }
        } else if let widest = variants.last, widest.advance >= target || math.assembly(base, vertical: false).isEmpty {
            return single((variants.last(where: { $0.advance <= target }) ?? variants[0]).glyph)
        }
        if let a = assembly(base, vertical: false, target: target, size: size, scalar: scalar) {
            return Atom(box: a, atomClass: .ord)
        }
        return single(variants.last!.glyph)
    }

    // MARK: - Rows and spacing

    /// Inter-atom spacing (TeXbook ch. 18 table): 0 none, 1 thin, 2 medium, 3 thick; negative values
    /// apply only in display and text styles. Rows/columns: ord op bin rel open close punct inner.
    static let spacing: [[Int]] = [
        [0, 1, -2, -3, 0, 0, 0, -1],
        [1, 1, 0, -3, 0, 0, 0, -1],
        [-2, -2, 0, 0, -2, 0, 0, -2],
        [-3, -3, 0, 0, -3, 0, 0, -3],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 1, -2, -3, 0, 0, 0, -1],
        [-1, -1, 0, -1, -1, -1, -1, -1],
        [-1, 1, -2, -3, -1, 0, -1, -1],
    ]

    /// Whether an atom of this class before a binary operator makes it ordinary (TeXbook rule 5).
    static func makesNextBinOrdinary(_ c: AtomClass) -> Bool {
        switch c {
        case .bin, .op, .rel, .open, .punct: return true
        default: return false
        }
    }

    static func index(_ c: AtomClass) -> Int {
        switch c {
        case .ord: return 0
        case .op: return 1
        case .bin: return 2
        case .rel: return 3
        case .open: return 4
        case .close: return 5
        case .punct: return 6
        case .inner: return 7
        }
    }

    func row(_ nodes: MathNode.Children, _ s: LayoutStyle) -> Atom {
        if nodes.count == 1 {
            var a = layout(nodes[0], s)
            // A braced group is an Ord atom (TeXbook rule 16), except what keeps its class.
            if case .row = nodes[0].kind {} else { return a }
            a.atomClass = a.atomClass == .op && a.largeOperator ? .op : a.atomClass
            return a
        }
        // amsmath's \pmod{n} (the parser writes it as `\quad(mod\,\,n)`): 18mu before the parenthesis in
        // display style, 8mu otherwise, and "mod" is upright letters, not an operator.
        if nodes.count >= 4, case let .space(w) = nodes[0].kind, abs(w - 1) < 0.001,
           case let .operator(open, _) = nodes[1].kind, open == "(", case let .identifier(word, _) = nodes[2].kind, word == "mod" {
            var atoms = nodes.map { layout($0, s) }
            atoms[0] = Atom(box: .empty(width: (s.isDisplay ? 18 : 8) * scale(s) / 18), atomClass: .ord, isSpace: true)
            atoms[2].atomClass = .ord
            return assemble(atoms, s)
        }
        // amsmath's \mod{n} (`\quad mod\;\;n` in the tree): 18mu before "mod" in display style, 12mu
        // otherwise; "mod" is an Ord group of upright letters, then \,\, (6mu).
        if nodes.count >= 3, case let .space(w) = nodes[0].kind, abs(w - 1) < 0.001,
           case let .identifier(word, nil) = nodes[1].kind, word == "mod", case .space = nodes[2].kind {
            var atoms = nodes.map { layout($0, s) }
            atoms[0] = Atom(box: .empty(width: (s.isDisplay ? 18 : 12) * scale(s) / 18), atomClass: .ord, isSpace: true)
            atoms[1].atomClass = .ord
            return assemble(atoms, s)
        }
        return assemble(nodes.map { layout($0, s) }, s)
    }

    /// Joins atoms into one horizontal list with TeX's inter-atom spacing and binary-operator
    /// demotion (TeXbook rules 5 and 6).
    func assemble(_ input: consuming [Atom], _ s: LayoutStyle, name: String = "row") -> Atom {
        var atoms = input
        // Rule 5/6: a Bin after nothing, Bin, Op, Rel, Open or Punct, or before Rel, Close, Punct or
        // the end, is an Ord.
        var prev: Int? = nil
        for i in atoms.indices where !atoms[i].isSpace {
            if atoms[i].atomClass == .bin {
                if let p = prev, !MathLayout.makesNextBinOrdinary(atoms[p].atomClass) {} else { atoms[i].atomClass = .ord }
            }
            if atoms[i].atomClass == .rel || atoms[i].atomClass == .close || atoms[i].atomClass == .punct, let p = prev,
               atoms[p].atomClass == .bin {
                atoms[p].atomClass = .ord
            }
            prev = i
        }
        if let p = prev, atoms[p].atomClass == .bin { atoms[p].atomClass = .ord }
        let mu = scale(s) / 18
        let count = atoms.count
        var metrics = HListBuilder.Metrics()
        if count == 1 {
            let only = atoms.removeLast()
            let x = metrics.place(width: only.box.width, height: only.box.height, depth: only.box.depth, kern: 0)
            let box = metrics.box(name, children: [Box.Placed(x: x, y: 0, box: only.box)])
            return (consume only).with(box: box)
        }
        // Each atom is moved out of the array (its slot gets an empty atom for the array to let go
        // of) and its box into the list; what spacing needs of the atoms before it is kept aside.
        let lastItalic = atoms.last?.italic ?? 0
        var children: [Box.Placed] = []
        children.reserveCapacity(count)
        var previousClass: AtomClass? = nil        // the last atom that is not a space
        var italicBefore = 0.0                     // the italic correction the atom just before asks for
        var italicBeforeAnything = false           // … whatever follows (it was an accented character)
        var textItalicBefore = 0.0                 // the italic correction of a text italic letter just before
        atoms.withUnsafeMutableBufferPointer { a in
            for i in 0..<count {
                let atom = (a.baseAddress! + i).move()
                (a.baseAddress! + i).initialize(to: Atom(box: .empty(), atomClass: .ord))
                var kern = 0.0
                if !atom.isSpace, let p = previousClass {
                    let code = MathLayout.spacing[MathLayout.index(p)][MathLayout.index(atom.atomClass)]
                    if code > 0 || (code < 0 && s.level == 0) {
                        kern = Double(abs(code) + 2) * mu     // codes 1, 2, 3: thin, medium, thick (3, 4, 5 mu)
                    }
                }
                // A slanted character gets its italic correction when the next atom is a character of the
                // math font (TeXbook Appendix G rule 17, as LuaTeX applies it to OpenType fonts): not at
                // the end of a list, nor before a space, a fraction, a fence, an accent or a text letter.
                if !atom.isSpace, italicBefore > 0, atom.isMathCharacter || italicBeforeAnything { kern += italicBefore }
                if atom.textItalicLetter { kern -= textItalicBefore }
                textItalicBefore = atom.textItalicLetter ? atom.italic : 0
                if !atom.isSpace { previousClass = atom.atomClass }
                let slanted = atom.glyph.map { $0 != 0 } ?? false
                italicBefore = (slanted || atom.accentedCharacter) && !atom.largeOperator && atom.italic > 0 && atom.atomClass == .ord ? atom.italic : 0
                italicBeforeAnything = atom.accentedCharacter
                let x = metrics.place(width: atom.box.width, height: atom.box.height, depth: atom.box.depth, kern: kern)
                children.append(Box.Placed(x: x, y: 0, box: atom.box))
            }
        }
        return Atom(box: metrics.box(name, children: children), atomClass: .ord, italic: lastItalic)
    }

    // MARK: - Fractions (TeXbook rule 15)

    func fraction(_ node: MathNode, _ p: FractionProperties, _ s0: LayoutStyle, nullDelimiters: Bool = true) -> Atom {
        var s = s0
        if let d = p.displayStyle { s = LayoutStyle(display: d, level: d ? 0 : s.level, cramped: s.cramped, sizeFactor: s.sizeFactor) }
        let size = scale(s)
        var numStyle = s.numerator, denStyle = s.denominator
        if p.continued {
            numStyle = LayoutStyle(display: true, level: 0, cramped: false, sizeFactor: s.sizeFactor)
            denStyle = LayoutStyle(display: true, level: 0, cramped: true, sizeFactor: s.sizeFactor)
        }
        var num = node.children.first.map { layout($0, numStyle).box } ?? .empty()
        let den = node.children.count > 1 ? layout(node.children[1], denStyle).box : .empty()
        if p.continued { num.height = max(num.height, 0.7 * 1.2 * s.sizeFactor); num.depth = max(num.depth, 0.3 * 1.2 * s.sizeFactor) }
        let theta = p.lineThickness.map { $0 * s.sizeFactor } ?? c.fractionRuleThickness * size
        let axis = c.axisHeight * size
        let display = s.isDisplay
        var u: Double, v: Double
        if theta > 0 {
            u = (display ? c.fractionNumeratorDisplayStyleShiftUp : c.fractionNumeratorShiftUp) * size
            v = (display ? c.fractionDenominatorDisplayStyleShiftDown : c.fractionDenominatorShiftDown) * size
            let gapNum = (display ? c.fractionNumDisplayStyleGapMin : c.fractionNumeratorGapMin) * size
            let gapDen = (display ? c.fractionDenomDisplayStyleGapMin : c.fractionDenominatorGapMin) * size
            u = max(u, axis + theta / 2 + gapNum + num.depth)
            v = max(v, den.height + gapDen - axis + theta / 2)
        } else {
            u = (display ? c.stackTopDisplayStyleShiftUp : c.stackTopShiftUp) * size
            v = (display ? c.stackBottomDisplayStyleShiftDown : c.stackBottomShiftDown) * size
            let gap = (display ? c.stackDisplayStyleGapMin : c.stackGapMin) * size
            let actual = (u - num.depth) - (den.height - v)
            if actual < gap { u += (gap - actual) / 2; v += (gap - actual) / 2 }
        }
        let inner = max(num.width, den.width)
        let pad = nullDelimiters ? 0.12 * s.sizeFactor : 0
        // amsmath's \cfrac takes back the right-hand null delimiter space.
        let rightPad = p.continued ? 0 : pad
        func x(_ b: Box) -> Double {
            switch p.numeratorAlign {
            case "left"?: return pad
            case "right"?: return pad + inner - b.width
            default: return pad + (inner - b.width) / 2
            }
        }
        var children: [Box.Placed] = []
        children.reserveCapacity(3)
        children.append(Box.Placed(x: x(num), y: u, box: num))
        children.append(Box.Placed(x: pad + (inner - den.width) / 2, y: -v, box: den))
        if theta > 0 {
            children.append(Box.Placed(x: pad, y: axis - theta / 2, box: Box(width: inner, height: theta, depth: 0, content: .rule)))
        }
        let box = Box(width: inner + pad + rightPad, height: max(u + num.height, axis + theta / 2), depth: max(v + den.depth, 0),
                      content: .list("frac"), children: children)
        // Rule 15e makes a generalized fraction an Inner atom, but amsmath's \frac, \dfrac, \tfrac, \binom
        // and \genfrac put it inside a group ({\begingroup#1\endgroup\over#2}), and a group is an Ord atom
        // (rule 16 spaces it as one): no thin space between a fraction and a letter.
        return Atom(box: box, atomClass: .ord)
    }

    // MARK: - Radicals (TeXbook rule 11)

    func radical(radicand: Box, degree: Box?, _ s: LayoutStyle) -> Atom {
        let size = scale(s)
        let theta = c.radicalRuleThickness * size
        let gap = (s.isDisplay ? c.radicalDisplayStyleVerticalGap : c.radicalVerticalGap) * size
        let target = radicand.height + radicand.depth + gap + theta
        let sign = delimiterGlyphBox(0x221A, targetTotal: target, s)
        let signTotal = sign.height + sign.depth
        // Extra room above the minimum is split between the gap and the space below the radicand.
        let clearance = gap + max(0, signTotal - target) / 2
        let ruleBottom = radicand.height + clearance
        let signShift = ruleBottom + theta - sign.height
        let extra = c.radicalExtraAscender * size
        var children: [Box.Placed] = []
        children.reserveCapacity(4)
        var x = 0.0
        var height = ruleBottom + theta + extra
        if let degree {
            let before = c.radicalKernBeforeDegree * size
            let after = c.radicalKernAfterDegree * size
            let raise = c.radicalDegreeBottomRaisePercent * signTotal + signShift - sign.depth
            children.append(Box.Placed(x: before, y: raise, box: degree))
            x = max(0, before + degree.width + after)
            height = max(height, raise + degree.height)
        }
        children.append(Box.Placed(x: x, y: signShift, box: sign))
        x += sign.width
        children.append(Box.Placed(x: x, y: ruleBottom, box: Box(width: radicand.width, height: theta, depth: 0, content: .rule)))
        children.append(Box.Placed(x: x, y: 0, box: radicand))
        let box = Box(width: x + radicand.width, height: height, depth: max(radicand.depth, sign.depth - signShift),
                      content: .list("sqrt"), children: children)
        return Atom(box: box, atomClass: .ord)
    }

    /// A vertical stretchy glyph (variant or assembly) with its own metrics, not centred.
    func delimiterGlyphBox(_ scalar: UInt32, targetTotal: Double, _ s: LayoutStyle) -> Box {
        let size = scale(s)
        guard let base = math.glyph(for: scalar, scriptLevel: 0) else { return .empty() }
        let target = targetTotal / size
        let variants = math.variants(base, vertical: true)
        if let v = variants.first(where: { $0.advance >= target }) ?? (math.assembly(base, vertical: true).isEmpty ? variants.last : nil) {
            let m = math.face.metrics(v.glyph)
            return Box(width: m.advance * size, height: m.height * size, depth: m.depth * size,
                       glyph: GlyphRef(font: .math, glyph: v.glyph, size: size, character: scalar), metrics: m)
        }
        if let a = assembly(base, vertical: true, target: target, size: size, scalar: scalar) {
            return a
        }
        let m = math.face.metrics(base)
        return Box(width: m.advance * size, height: m.height * size, depth: m.depth * size,
                   glyph: GlyphRef(font: .math, glyph: base, size: size, character: scalar), metrics: m)
    }

    // MARK: - Scripts (TeXbook rules 17, 18)

    func scripts(_ baseNode: MathNode?, sub subNode: MathNode?, sup supNode: MathNode?, _ s: LayoutStyle) -> Atom {
        // (Primes typed as `''` are one double-prime character already, as unicode-math sets them; the
        // parser combines them. `^{\prime\prime}` is two primes side by side, as in TeX.)
        if s.isDisplay, let baseNode, baseNode.kind == .row, baseNode.declaredAtomClass == .op {
            // Rule 13a: an Op atom of normal limits (`\mathop{\mathrm{M}}_2`, not `\nolimits`) takes its
            // scripts as limits in display style.
            return underOver(baseNode, under: subNode, over: supNode, UnderOverProperties(), s)
        }
        let sup = supNode.map { layout($0, s.superscript).box }
        let sub = subNode.map { layout($0, s.subscript).box }
        if let baseNode, let accented = accentedCharacter(baseNode, sub: sub, sup: sup, s) { return accented }
        // An accented character with one script inside a group and the other outside it (`{\bar{B}_a}^d`)
        // is set as the accent with both scripts, as LuaTeX sets it (measured): rule 12 then puts both on
        // the character.
        if let baseNode, (sub == nil) != (sup == nil), baseNode.children.count == 2,
           case let .over(p) = baseNode.children[0].kind, p.accent {
            switch baseNode.kind {
            case .subscript where sup != nil && baseNode.children.count == 2:
                let inner = layout(baseNode.children[1], s.subscript).box
                if let accented = accentedCharacter(baseNode.children[0], sub: inner, sup: sup, s) { return accented }
            case .superscript where sub != nil && baseNode.children.count == 2:
                let inner = layout(baseNode.children[1], s.superscript).box
                if let accented = accentedCharacter(baseNode.children[0], sub: sub, sup: inner, s) { return accented }
            default: break
            }
        }
        let base = baseNode.map { layout($0, s) } ?? Atom(box: .empty(), atomClass: .ord)
        return attachScripts(consume base, sub: sub, sup: sup, s)
    }

    /// TeXbook Appendix G rule 12: when the nucleus of an accent is a single character and the accent
    /// atom has scripts, "replace box x by a box containing the nucleus together with the superscript and
    /// subscript of the Acc atom … also increase δ by the difference between the heights of the new and
    /// old x boxes": the scripts sit as on the bare character (rule 18a starts from u = v = 0, not from
    /// the accented box's height and depth) and the accent stays where it is over the character, moved
    /// by the character's skew (its top accent attachment). Nil when the node is not such an accent.
    func accentedCharacter(_ node: MathNode, sub: Box?, sup: Box?, _ s: LayoutStyle) -> Atom? {
        guard case let .over(p) = node.kind, p.accent, node.children.count == 2,
              case let .operator(text, op) = node.children[1].kind, let mark = text.soleScalar?.value,
              MathLayout.isAccentMark(mark, stretchy: op.stretchy) else { return nil }
        // A single character: the nucleus is one symbol (not a group, a name or a big operator).
        switch node.children[0].kind {
        case let .identifier(t, _): guard t.isOneScalar else { return nil }
        case let .number(t, _): guard t.isOneScalar else { return nil }
        case let .operator(t, o): guard t.isOneScalar, !o.largeOperator, o.size == nil, !o.stretchy else { return nil }
        default: return nil
        }
        let character = layout(node.children[0], s)
        guard character.glyph != nil, !character.largeOperator else { return nil }
        let size = scale(s)
        let fromText = textFontAccent(node.children[1], mark, s)
        let accent = fromText?.mark ?? accentMark(mark, stretchy: op.stretchy, width: character.box.width, s)
        // As `underOver` places an accent over a character: centred when wider, at the attachment points.
        let cw = character.box.width
        let width = max(cw, accent.box.width)
        let baseX = (width - cw) / 2
        var x = (width - accent.box.width) / 2
        if let ba = character.topAccent, let oa = accent.topAccent { x = baseX + ba - oa }
        let y = max(0, character.box.height - (fromText?.xHeight ?? c.accentBaseHeight * size))
        let cls: AtomClass = [.op, .rel].contains(character.atomClass) ? character.atomClass : .ord
        let scripted = attachScripts(consume character, sub: sub, sup: sup, s).box
        let box = Box(width: max(width, baseX + scripted.width), height: max(scripted.height, y + accent.box.height),
                      depth: max(scripted.depth, accent.box.depth - y), content: .list("accent"),
                      children: [Box.Placed(x: baseX, y: 0, box: scripted), Box.Placed(x: x, y: y, box: accent.box)])
        return Atom(box: box, atomClass: cls)
    }

    /// Whether a mark over a base is an accent set at accent height (TeXbook rule 12: `\hat`, `\tilde`,
    /// `\bar`, `\vec`, `\dot`, wide accents and arrows, the combining marks), not `\overline` (rule 9) nor a
    /// brace or an arrow set above its base.
    static func isAccentMark(_ u: UInt32, stretchy: Bool) -> Bool {
        if u == 0x203E || (u == 0xAF && stretchy) { return false }
        return accentScalars[u] != nil || arrowAccentsAbove[u] != nil || (0x300...0x36F).contains(u) || (0x20D0...0x20FF).contains(u)
    }

    func attachScripts(_ base: consuming Atom, sub: Box?, sup: Box?, _ s: LayoutStyle) -> Atom {
        let size = scale(s)
        let b = base.box
        // Rule 18a: a character nucleus starts from u = v = 0; a box from its height less
        // SuperscriptBaselineDropMax and its depth plus SubscriptBaselineDropMin.
        let isChar = (base.glyph != nil || base.endsInCharacter) && !base.largeOperator
        var u = isChar ? 0 : b.height - c.superscriptBaselineDropMax * size
        var v = isChar ? 0 : b.depth + c.subscriptBaselineDropMin * size
        var children: [Box.Placed] = []
        children.reserveCapacity(3)
        children.append(Box.Placed(x: 0, y: 0, box: b))
        // (A text italic letter's box holds its italic correction already.)
        let italic = base.italic
        // A big operator's italic correction belongs to its superscript: with scripts, the nucleus
        // counts only up to where the subscript starts (as LuaTeX sets OpenType operators).
        var width = base.largeOperator ? b.width - italic : b.width
        // Italic correction: a superscript moves right of a slanted letter; a big operator's
        // subscript moves left under it (OpenType MATH convention), as does a text italic letter's.
        let supX = b.width + (base.largeOperator || base.textItalicLetter ? 0 : italic)
        let subX = b.width - (base.largeOperator || base.textItalicLetter ? italic : 0)
        let space = c.spaceAfterScript * size
        if let sup, sub == nil {
            u = max(u, (s.cramped ? c.superscriptShiftUpCramped : c.superscriptShiftUp) * size, sup.depth + c.superscriptBottomMin * size)
            let kern = mathKern(base, corner: HB_OT_MATH_KERN_TOP_RIGHT, height: u - sup.depth, size: size)
            children.append(Box.Placed(x: supX + kern, y: u, box: sup))
            width = max(width, supX + kern + sup.width + space)
            return finish(base, children, width: width)
        }
        if let sub, sup == nil {
            v = max(v, c.subscriptShiftDown * size, sub.height - c.subscriptTopMax * size)
            let kern = mathKern(base, corner: HB_OT_MATH_KERN_BOTTOM_RIGHT, height: -v + sub.height, size: size)
            children.append(Box.Placed(x: subX + kern, y: -v, box: sub))
            width = max(width, subX + kern + sub.width + space)
            return finish(base, children, width: width)
        }
        guard let sub, let sup else { return base }
        u = max(u, (s.cramped ? c.superscriptShiftUpCramped : c.superscriptShiftUp) * size, sup.depth + c.superscriptBottomMin * size)
        v = max(v, c.subscriptShiftDown * size)
        let gap = (u - sup.depth) - (sub.height - v)
        let minGap = c.subSuperscriptGapMin * size
        if gap < minGap {
            v += minGap - gap
            let psi = c.superscriptBottomMaxWithSubscript * size - (u - sup.depth)
            if psi > 0 { u += psi; v -= psi }
        }
        let kernUp = mathKern(base, corner: HB_OT_MATH_KERN_TOP_RIGHT, height: u - sup.depth, size: size)
        let kernDown = mathKern(base, corner: HB_OT_MATH_KERN_BOTTOM_RIGHT, height: -v + sub.height, size: size)
        children.append(Box.Placed(x: supX + kernUp, y: u, box: sup))
        children.append(Box.Placed(x: subX + kernDown, y: -v, box: sub))
        width = max(width, supX + kernUp + sup.width + space, subX + kernDown + sub.width + space)
        return finish(base, children, width: width)
    }

    /// The MATH kern (cut-in) at a corner of a one-glyph base, at the height where the script meets it.
    private func mathKern(_ base: Atom, corner: hb_ot_math_kern_t, height: Double, size: Double) -> Double {
        guard let g = base.glyph, !base.largeOperator else { return 0 }
        return math.kern(g, corner: corner, height: height / size) * size
    }

    private func finish(_ base: consuming Atom, _ children: [Box.Placed], width: Double) -> Atom {
        var h = 0.0, d = 0.0
        for ch in children { h = max(h, ch.y + ch.box.height); d = max(d, ch.box.depth - ch.y) }
        let character = base.isMathCharacter
        var a = base.with(box: Box(width: width, height: h, depth: d, content: .list("scripts"), children: children))
        a.glyph = nil
        a.endsInCharacter = false
        a.scriptedCharacter = character
        a.accentedCharacter = false
        a.textItalicLetter = false
        a.italic = 0
        a.largeOperator = false
        return a
    }

    // MARK: - Under and over (TeXbook rules 12, 13a; MathML Core munder/mover)

    static let accentScalars: [UInt32: UInt32] = [
        0x5E: 0x302, 0x2C6: 0x302, 0x7E: 0x303, 0x2DC: 0x303, 0xAF: 0x304, 0x2C9: 0x304, 0x2D9: 0x307,
        0xA8: 0x308, 0x2C7: 0x30C, 0x2D8: 0x306, 0xB4: 0x301, 0x60: 0x300, 0x2DA: 0x30A,
    ]

    func underOver(_ baseNode: MathNode?, under: MathNode?, over: MathNode?, _ p: UnderOverProperties, _ s: LayoutStyle) -> Atom {
        // The nucleus of an accent (TeXbook Appendix G rule 12) or of \overline (rule 9) is set in the cramped
        // style: a superscript inside it sits lower (`\overline{H'}`, `\ddot{Z^1}`).
        var base = baseNode.map { layout($0, p.accent ? s.crampedStyle : s) } ?? Atom(box: .empty(), atomClass: .ord)
        // Limits of a movable-limits operator become scripts outside display style.
        if base.movableLimits && !s.isDisplay && !p.accent && !p.accentUnder {
            return attachScripts(consume base, sub: under.map { layout($0, s.subscript).box }, sup: over.map { layout($0, s.superscript).box }, s)
        }
        if !p.accent && !p.accentUnder && base.glyph == nil {
            // Rule 13a takes the nucleus through clean_box: a list is hpacked, and an hbox's height and
            // depth start from zero (`\underset{x}{\mathop{z}}`: the z raised to the axis has no depth
            // below zero for the limit to hang from).
            base.box.height = max(0, base.box.height)
            base.box.depth = max(0, base.box.depth)
        }
        let size = scale(s)
        var overAtom: Atom? = nil, underAtom: Atom? = nil
        var overIsAccent = p.accent, underIsAccent = p.accentUnder
        // How far below the base's top an accent sits at most (rule 12's δ): the font's AccentBaseHeight,
        // or the x-height of the text font an accent is taken from.
        var accentDrop = c.accentBaseHeight * size
        // Accents: a mark over or under the base.
        if let over, p.accent, case let .operator(text, op) = over.kind, text.isOneScalar {
            let u = text.unicodeScalars.first!.value
            if u == 0x203E || (u == 0xAF && op.stretchy) {
                return overbar(base, s)
            }
            if let fromText = textFontAccent(over, u, s) {
                overAtom = fromText.mark
                accentDrop = fromText.xHeight
            } else {
                overAtom = accentMark(u, stretchy: op.stretchy, width: base.box.width, s)
            }
        }
        if let under, p.accentUnder, case let .operator(text, op) = under.kind, text.isOneScalar {
            let u = text.unicodeScalars.first!.value
            if u == 0x203E || u == 0xAF || u == 0x5F {
                return underbar(base, s)
            }
            underAtom = accentMark(u, stretchy: op.stretchy, width: base.box.width, below: true, s)
        }
        // Stretchy marks that are not accents (braces) stretch to the base.
        if overAtom == nil, let over {
            if case let .operator(text, op) = over.kind, op.stretchy, text.isOneScalar,
               let stretched = horizontalStretch(text.unicodeScalars.first!.value, width: base.box.width, s) {
                overAtom = stretched
                overIsAccent = true
            } else {
                overAtom = layout(over, p.accent ? s.crampedStyle : s.superscript)
            }
        }
        if underAtom == nil, let under {
            if case let .operator(text, op) = under.kind, op.stretchy, text.isOneScalar,
               let stretched = horizontalStretch(text.unicodeScalars.first!.value, width: base.box.width, s) {
                underAtom = stretched
                underIsAccent = true
            } else {
                underAtom = layout(under, p.accentUnder ? s : s.subscript)
            }
        }
        // A stretchy base (extensible arrow) grows to cover its scripts.
        if base.stretchyHorizontal, case let .operator(text, _)? = baseNode?.kind, text.isOneScalar {
            // amsmath's \ext@arrow: the labels set in script style with 5mu and 9mu beside them (14 mu of the
            // script size), and the arrow filled to that width with \cleaders (never narrower than its natural
            // \rightarrowfill@, one arrow wide).
            let want = max(overAtom?.box.width ?? 0, underAtom?.box.width ?? 0) + 14 * scale(s.superscript) / 18
            if let stretched = horizontalStretch(MathLayout.operatorScalar(text.unicodeScalars.first!), width: max(want, base.box.width), s, cover: true) {
                var b = stretched
                b.atomClass = base.atomClass
                b.stretchyHorizontal = true
                base = b
            }
        }
        let width = max(base.box.width, overAtom?.box.width ?? 0, underAtom?.box.width ?? 0)
        let baseX = (width - base.box.width) / 2
        var children: [Box.Placed] = []
        children.reserveCapacity(3)
        children.append(Box.Placed(x: baseX, y: 0, box: base.box))
        var height = base.box.height, depth = base.box.depth
        let italic = base.largeOperator ? base.italic : 0
        if let o = overAtom {
            var y: Double
            var x = (width - o.box.width) / 2 + italic / 2
            if overIsAccent {
                // TeXbook rule 12: the accent sits AccentBaseHeight lower than the base's top.
                y = max(0, base.box.height - accentDrop)
                if let ba = base.topAccent, let oa = o.topAccent, base.glyph != nil {
                    x = baseX + ba - oa
                } else if let oa = o.topAccent, o.glyph != nil {
                    x = baseX + base.box.width / 2 - oa
                }
                // Braces and brackets are set the same way (as LuaTeX sets \Uoverdelimiter): their glyphs
                // are drawn above the x-height already. Other marks (⇒, ⟷ over a base) are not drawn at
                // accent height: their ink goes above the base with the overbar gap.
                if case let .operator(text, _)? = over?.kind, let u = text.unicodeScalars.first?.value, !isHorizontalBracket(over),
                   MathLayout.accentScalars[u] == nil, MathLayout.arrowAccentsAbove[u] == nil || o.glyph == nil && o.box.depth > 0,
                   !(0x300...0x36F).contains(u), !(0x20D0...0x20FF).contains(u) {
                    y = base.box.height + c.overbarVerticalGap * size + o.box.depth
                }
            } else {
                // Limits (TeXbook rule 13a); labels of extensible arrows and \overset too, which amsmath
                // sets as \mathop limits.
                y = base.box.height + max(c.upperLimitGapMin * size + o.box.depth, c.upperLimitBaselineRiseMin * size)
            }
            children.append(Box.Placed(x: x, y: y, box: o.box))
            height = max(height, y + o.box.height)
        }
        if let un = underAtom {
            var y: Double
            let x = (width - un.box.width) / 2 - italic / 2
            if underIsAccent {
                // A stretched mark (brace, arrow, tilde) hangs from the base's bottom by its own baseline
                // (its glyphs are drawn below it), as LuaTeX sets \Uunderdelimiter; a plain under accent
                // keeps the underbar gap below the base.
                let stretchy = under.map { n -> Bool in if case let .operator(_, op) = n.kind { return op.stretchy }; return false } ?? false
                if stretchy && un.box.height <= 0.05 * size {
                    y = -base.box.depth
                } else {
                    // A mark drawn above its baseline (no below form in the font): its ink top goes under the
                    // base with the underbar gap.
                    y = -(base.box.depth + c.underbarVerticalGap * size + un.box.height)
                }
            } else {
                y = -(base.box.depth + max(c.lowerLimitGapMin * size + un.box.height, c.lowerLimitBaselineDropMin * size))
            }
            children.append(Box.Placed(x: x, y: y, box: un.box))
            depth = max(depth, -y + un.box.depth)
        }
        let baseClass = base.atomClass, baseIsLargeOperator = base.largeOperator
        let baseIsCharacter = base.glyph != nil && !base.largeOperator, baseItalic = base.italic
        var result = (consume base).with(box: Box(width: width, height: height, depth: depth,
                                        content: .list(overIsAccent || underIsAccent ? "accent" : "limits"), children: children))
        result.glyph = nil
        result.endsInCharacter = false
        result.scriptedCharacter = false
        result.textItalicLetter = false
        result.largeOperator = false
        result.movableLimits = false
        result.italic = 0
        if baseIsCharacter, overIsAccent, overAtom != nil, underAtom == nil {
            result.italic = baseItalic
            result.accentedCharacter = true
        }
        // Spacing class: an accented atom is an Ord (TeXbook rule 12) unless its base is an operator or a
        // relation; limits keep their operator's class, stacked relations (`\overset{!}{=}`) theirs.
        if isBraceMark(over) || isBraceMark(under) {
            // \overbrace and friends are \mathop{…}\limits in LaTeX.
            result.atomClass = .op
        } else if overIsAccent || underIsAccent {
            result.atomClass = [.op, .rel].contains(baseClass) ? baseClass : .ord
        } else {
            result.atomClass = baseIsLargeOperator ? .op : baseClass
        }
        return result
    }

    /// Whether a node is a brace or bracket mark (`\overbrace`, `\underbracket`): LaTeX makes those \mathop.
    func isBraceMark(_ node: MathNode?) -> Bool {
        guard let node, case let .operator(text, op) = node.kind, op.stretchy, let u = text.unicodeScalars.first?.value else { return false }
        return u == 0x23DE || u == 0x23DF || u == 0x23B4 || u == 0x23B5
    }

    /// Whether a node is a horizontal bracket drawn above the x-height like an accent (braces,
    /// brackets, parentheses and groups of the Miscellaneous Technical block).
    func isHorizontalBracket(_ node: MathNode?) -> Bool {
        guard let node, case let .operator(text, op) = node.kind, op.stretchy, let u = text.unicodeScalars.first?.value else { return false }
        return (0x23DC...0x23E1).contains(u) || u == 0x23B4 || u == 0x23B5
    }

    /// An accent mark: the combining form of the accent character, stretched to the base when wide.
    /// Wide arrows over and under a base are the combining arrows (as unicode-math sets \overrightarrow…),
    /// which the math fonts stretch and draw at accent height.
    static let arrowAccentsAbove: [UInt32: UInt32] = [0x2192: 0x20D7, 0x2190: 0x20D6, 0x2194: 0x20E1, 0x21BC: 0x20D0, 0x21C0: 0x20D1]
    static let arrowAccentsBelow: [UInt32: UInt32] = [0x2192: 0x20EF, 0x2190: 0x20EE, 0x2194: 0x034D]
    /// Combining accents above → their forms below.
    static let accentsBelow: [UInt32: UInt32] = [0x303: 0x330, 0x302: 0x32D, 0x30C: 0x32C, 0x304: 0x331, 0x306: 0x32E,
                                                 0x307: 0x323, 0x308: 0x324]

    func accentMark(_ u: UInt32, stretchy: Bool, width: Double, below: Bool = false, _ s: LayoutStyle) -> Atom {
        var scalar: UInt32
        if let combining = MathLayout.accentScalars[u] {
            scalar = combining
        } else if u == 0x2192 && !stretchy {
            scalar = 0x20D7 // \vec: combining right arrow above
        } else {
            scalar = u
        }
        if stretchy, let arrow = (below ? MathLayout.arrowAccentsBelow : MathLayout.arrowAccentsAbove)[u],
           math.face.glyph(for: arrow) != nil {
            scalar = arrow
        }
        // Under a base, the combining-below form of an accent (\utilde → U+0330) when the font has it.
        if below, let under = MathLayout.accentsBelow[scalar], math.face.glyph(for: under) != nil {
            scalar = under
        }
        if stretchy || scalar == 0x302 || scalar == 0x303 || scalar == 0x30C {
            if stretchy, let a = horizontalStretch(scalar, width: width, s) { return a }
        }
        let g = glyphBox(scalar, s)
        return Atom(box: g.box, atomClass: .ord, glyph: g.glyph, topAccent: g.metrics.topAccentAttachment * scale(s))
    }

    /// An accent inside a text-font alphabet (`\mathbf{\tilde{R}}`, `\mathrm{\hat{a}}`: the accent node carries
    /// the alphabet), taken from that text font as LuaLaTeX does: unicode-math's accents are `\Umathaccent`
    /// of the variable family (LaTeX's `\mathaccent` type 7), so they follow `\fam`, and `\mathrm`,
    /// `\mathbf`, `\mathit`, `\mathsf`, `\mathtt` are text fonts. The mark is the font's combining
    /// character (a box of no width, as TeX's char box; no wide forms), and rule 12's δ is the text font's
    /// x-height (a font without a MATH table has no AccentBaseHeight). Nil when the accent has no such
    /// alphabet, or the text face lacks the character.
    func textFontAccent(_ node: MathNode, _ u: UInt32, _ s: LayoutStyle) -> (mark: Atom, xHeight: Double)? {
        guard let raw = node.attributes?[MathNode.mathVariantAttribute], let variant = MathVariant(rawValue: raw),
              let combining = MathLayout.accentScalars[u] ?? ((0x300...0x36F).contains(u) ? u : nil) else { return nil }
        let role: FontRole
        switch variant {
        case .normal: role = .text
        case .bold: role = .textBold
        case .italic: role = .textItalic
        case .sansSerif: role = .textSans
        case .monospace: role = .textMono
        default: return nil
        }
        guard fonts.hasTextFace(role) else { return nil }
        let face = fonts.face(fonts.textRole(role, scriptLevel: s.level))
        guard let glyph = face.glyph(for: combining), let xHeight = face.xHeight ?? face.glyph(for: 0x78).map({ face.metrics($0).height }) else {
            return nil
        }
        let size = scale(s)
        let m = face.metrics(glyph)
        let mark = Box(width: 0, height: max(0, m.height) * size, depth: max(0, m.depth) * size,
                       glyph: GlyphRef(font: fonts.textRole(role, scriptLevel: s.level), glyph: glyph, size: size,
                                                character: combining), metrics: m)
        // A combining mark's ink lies left of its origin (it is drawn over the character before it), so
        // the box that is centred over the base holds the mark with its ink centred on the box's origin:
        // the box is TeX's (no width, the mark's height and depth), the ink sits over the base's middle
        // (it was half off the letter, `\mathbf{\hat{x}}`, and clipped at the image's edge).
        let box = Box(width: 0, height: mark.height, depth: mark.depth, content: .list("text accent"),
                      children: [Box.Placed(x: -(m.inkLeft + m.inkRight) / 2 * size, y: 0, box: mark)])
        return (Atom(box: box, atomClass: .ord), xHeight * size)
    }

    /// `\overline` (TeXbook rule 9, OpenType Overbar constants).
    func overbar(_ base: Atom, _ s: LayoutStyle) -> Atom {
        let size = scale(s)
        let gap = c.overbarVerticalGap * size, t = c.overbarRuleThickness * size, extra = c.overbarExtraAscender * size
        let b = base.box
        let box = Box(width: b.width, height: b.height + gap + t + extra, depth: b.depth, content: .list("overline"),
                      children: [Box.Placed(x: 0, y: 0, box: b),
                                 Box.Placed(x: 0, y: b.height + gap, box: Box(width: b.width, height: t, depth: 0, content: .rule))])
        return Atom(box: box, atomClass: .ord)
    }

    /// `\underline` (TeXbook rule 10, OpenType Underbar constants).
    func underbar(_ base: Atom, _ s: LayoutStyle) -> Atom {
        let size = scale(s)
        let gap = c.underbarVerticalGap * size, t = c.underbarRuleThickness * size, extra = c.underbarExtraDescender * size
        let b = base.box
        let box = Box(width: b.width, height: b.height, depth: b.depth + gap + t + extra, content: .list("underline"),
                      children: [Box.Placed(x: 0, y: 0, box: b),
                                 Box.Placed(x: 0, y: -(b.depth + gap + t), box: Box(width: b.width, height: t, depth: 0, content: .rule))])
        return Atom(box: box, atomClass: .ord)
    }

    func multiscripts(_ node: MathNode, prescriptPairs: Int, _ s: LayoutStyle) -> Atom {
        let kids = node.children
        guard let baseNode = kids.first else { return Atom(box: .empty(), atomClass: .ord) }
        let postCount = max(0, (kids.count - 1) / 2 - prescriptPairs)
        func pair(_ i: Int) -> (Box?, Box?) {
            let sub = kids[safe: 1 + 2 * i].flatMap { n -> Box? in if case .none = n.kind { return nil }; return layout(n, s.subscript).box }
            let sup = kids[safe: 2 + 2 * i].flatMap { n -> Box? in if case .none = n.kind { return nil }; return layout(n, s.superscript).box }
            return (sub, sup)
        }
        var items: [Atom] = []
        for i in 0..<prescriptPairs {
            let (sub, sup) = pair(postCount + i)
            items.append(attachScripts(Atom(box: .empty(), atomClass: .ord), sub: sub, sup: sup, s))
        }
        var base = layout(baseNode, s)
        for i in 0..<postCount {
            let (sub, sup) = pair(i)
            base = attachScripts(consume base, sub: sub, sup: sup, s)
        }
        items.append(base)
        var out = assemble(items, s, name: "multiscripts")
        out.atomClass = base.atomClass
        return out
    }

    // MARK: - Fences (TeXbook rule 19)

    func fenced(_ nodes: MathNode.Children, open: String, close: String, _ s: LayoutStyle) -> Atom {
        var atoms: [Atom] = []
        var middles: [Int] = []
        for n in nodes {
            if case let .operator(text, p) = n.kind, p.fence, p.stretchy, p.size == nil, text.isOneScalar {
                middles.append(atoms.count)
                // \middle takes no inter-atom space of its own (it closes and reopens the fence).
                var a = Atom(box: .empty(), atomClass: p.atomClass, isSpace: true)
                a.pendingDelimiter = text.unicodeScalars.first
                atoms.append(a)
            } else if nodes.count == 1, case let .fraction(fp) = n.kind, fp.lineThickness == 0 {
                atoms.append(fraction(n, fp, s, nullDelimiters: false))   // \binom: the fences replace the null delimiters
            } else {
                atoms.append(layout(n, s))
            }
        }
        var h = 0.0, d = 0.0
        for a in atoms { h = max(h, a.box.height); d = max(d, a.box.depth) }
        let size = scale(s)
        let axis = c.axisHeight * size
        // Rule 19: δ = max(h − axis, d + axis); size ≥ max(2δ·901/1000, 2δ − 5pt).
        let delta = max(h - axis, d + axis)
        var target = max(2 * delta * 0.901, 2 * delta - 0.5 * s.sizeFactor)
        // Rule 15e sizes the delimiters of a generalized fraction to \delim1 in display style and \delim2
        // otherwise, whatever the fraction's size. amsmath's \genfrac under LuaTeX sets each one as
        // `\hbox{$\left( \vcenter{\hrule height D}\right.$}`, D = \Umathfractiondelsize of the style
        // (FractionDelimiterDisplayStyleSize 2.4 em, FractionDelimiterSize 1.01 em, of the style's size),
        // with \delimitershortfall 0: a delimiter at least D tall, taken at the text size and centred on the
        // text axis (the \hbox starts a new formula), so a \binom in a script keeps text-size parentheses.
        var delimiterStyle = s
        if nodes.count == 1, case let .fraction(fp) = nodes[0].kind, fp.lineThickness == 0 {
            let isDisplay = fp.displayStyle ?? s.isDisplay
            target = (isDisplay ? 2.4 : 1.01) * (fp.displayStyle != nil ? s.sizeFactor : scale(s))
            delimiterStyle = LayoutStyle(display: false, level: 0, cramped: false, sizeFactor: s.sizeFactor)
        }
        for i in middles {
            var m = delimiter(MathLayout.operatorScalar(atoms[i].pendingDelimiter!), targetTotal: target, s)
            m.atomClass = atoms[i].atomClass
            m.isSpace = true
            atoms[i] = m
        }
        var items: [Atom] = []
        var l = delimiter(open.unicodeScalars.first.map { MathLayout.operatorScalar($0) } ?? 0, targetTotal: target, delimiterStyle)
        l.atomClass = .open
        items.append(l)
        items.append(contentsOf: atoms)
        var r = delimiter(close.unicodeScalars.first.map { MathLayout.operatorScalar($0) } ?? 0, targetTotal: target, delimiterStyle)
        r.atomClass = .close
        items.append(r)
        var out = assemble(items, s, name: "fenced")
        // `\left…\right` is an Inner atom (rule 19); amsmath's `\binom` (`\genfrac`) is a group around its
        // generalized fraction, an Ord atom (rule 16): no thin space between it and a letter or an operator.
        let generalizedFraction: Bool
        if nodes.count == 1, case let .fraction(fp) = nodes[0].kind, fp.lineThickness == 0 { generalizedFraction = true } else { generalizedFraction = false }
        out.atomClass = generalizedFraction ? .ord : .inner
        out.glyph = nil
        out.italic = 0
        return out
    }

    // MARK: - Tables

    /// amsmath's `smallmatrix`: `\,\vcenter{…}\,`, script-style cells centred, a \thickspace (0.2777 em)
    /// between columns, rows 6 pt apart unless closer than 1.5 pt (`\baselineskip`, `\lineskip`).
    /// (The parser wraps the table in `scriptlevel=1`: `s` is already the cells' style; the spaces and
    /// the axis belong to the text style outside.)
    /// `\substack` and `subarray` use the same rows without the outer thin spaces, aligned per column.
    /// (Their rows: \baselineskip 0.5523 em and \lineskip 0.084 em, measured from LuaLaTeX.)
    func smallMatrix(_ node: MathNode, _ s: LayoutStyle, outerSpaces: Bool = true, alignments: [ColumnAlignment] = [],
                     baselineSkip: Double = 0.6, lineSkip: Double = 0.15) -> Atom {
        let cellStyle = LayoutStyle(display: false, level: max(1, s.level), cramped: false, sizeFactor: s.sizeFactor)
        let rows: [[Box]] = node.children.prefix(1000).map { rowNode in
            rowNode.children.prefix(100).map { cell in
                if case .tableCell = cell.kind { return row(cell.children, cellStyle).box }
                return layout(cell, cellStyle).box
            }
        }
        let columns = rows.map(\.count).max() ?? 0
        var colWidth = [Double](repeating: 0, count: columns)
        for r in rows { for (j, b) in r.enumerated() { colWidth[j] = max(colWidth[j], b.width) } }
        let thin = outerSpaces ? 3 * s.sizeFactor / 18 : 0
        let gap = 0.2777 * s.sizeFactor
        var children: [Box.Placed] = []
        var baseline = 0.0
        var previousDepth = 0.0
        for (i, r) in rows.enumerated() {
            let h = r.map(\.height).max() ?? 0, d = r.map(\.depth).max() ?? 0
            if i == 0 {
                baseline = -h
            } else {
                let skip = baselineSkip * s.sizeFactor, lineskip = lineSkip * s.sizeFactor
                baseline -= skip - previousDepth - h >= lineskip ? skip : previousDepth + h + lineskip
            }
            var x = thin
            for (j, b) in r.enumerated() {
                let align = alignments.isEmpty ? .center : alignments[min(j, alignments.count - 1)]
                let dx = align == .left ? 0 : (align == .right ? colWidth[j] - b.width : (colWidth[j] - b.width) / 2)
                children.append(Box.Placed(x: x + dx, y: baseline, box: b))
                x += colWidth[j] + gap
            }
            previousDepth = d
        }
        let total = -(baseline - previousDepth)
        // \vcenter centres on the axis of the style it is in: the text style's for smallmatrix (whose `s` is
        // its cells' script style), the style's own for \substack and subarray (in a subscript, the script axis).
        let axis = c.axisHeight * (outerSpaces ? s.sizeFactor : scale(s))
        let shift = total / 2 + axis
        for k in children.indices { children[k].y += shift }
        let width = colWidth.reduce(0, +) + gap * Double(max(0, columns - 1)) + 2 * thin
        return Atom(box: Box(width: width, height: shift, depth: total - shift, content: .list("table"), children: children), atomClass: .ord)
    }

    /// The AMS environments set as right–left column pairs.
    static let alignEnvironments: Set<String> = ["align", "align*", "aligned", "alignat", "alignat*", "alignedat", "split",
                                                 "flalign", "flalign*", "eqnarray", "eqnarray*"]

    func table(_ node: MathNode, _ p: TableProperties, _ s: LayoutStyle) -> Atom {
        let env = p.environment
        if env == "smallmatrix" { return smallMatrix(node, s) }
        if env == "substack" || env == "subarray" {
            return smallMatrix(node, s, outerSpaces: false, alignments: p.columnAlignments, baselineSkip: 0.5523, lineSkip: 0.084)
        }
        let cellStyle = LayoutStyle(display: p.displayStyle, level: s.level, cramped: false, sizeFactor: s.sizeFactor)
        let isAlign = MathLayout.alignEnvironments.contains(env)
        let stretch: Double = env.hasPrefix("cases") || env.hasPrefix("dcases") || env.hasPrefix("rcases") ? 1.2 : 1
        var rows: [[Box]] = []
        var labels: [Box?] = []
        let cellLimit = 10_000
        var cellCount = 0
        for rowNode in node.children {
            var cells: [Box] = []
            var label: Box? = nil
            var kids = Array(rowNode.children)
            if case .tableRow(true) = rowNode.kind, !kids.isEmpty {
                label = row(kids[0].children, LayoutStyle(display: false, level: 0, cramped: false, sizeFactor: s.sizeFactor)).box
                kids.removeFirst()
            }
            for cell in kids {
                cellCount += 1
                if cellCount > cellLimit { break }
                let children: MathNode.Children
                if case .tableCell = cell.kind { children = cell.children } else { children = MathNode.Children(cell) }
                if isAlign && cells.count % 2 == 1 {
                    // amsmath starts each right-hand column with an empty group, so `&=` spaces its relation.
                    cells.append(assemble([Atom(box: .empty(), atomClass: .ord)] + children.map { layout($0, cellStyle) }, cellStyle).box)
                } else {
                    cells.append(row(children, cellStyle).box)
                }
            }
            if label == nil, p.numbered, env != "multline" || rowNode == node.children.last {
                counter.equation += 1
                label = textRun("(\(counter.equation))", variant: nil, LayoutStyle(display: false, level: 0, cramped: false, sizeFactor: s.sizeFactor)).box
            }
            rows.append(cells)
            labels.append(label)
        }
        let columns = rows.map(\.count).max() ?? 0
        var colWidth = [Double](repeating: 0, count: columns)
        for r in rows { for (j, b) in r.enumerated() { colWidth[j] = max(colWidth[j], b.width) } }
        func alignment(_ j: Int) -> ColumnAlignment {
            if isAlign { return j % 2 == 0 ? .right : .left }
            if p.columnAlignments.isEmpty { return .center }
            return p.columnAlignments[min(j, p.columnAlignments.count - 1)]
        }
        // Column gaps: \arraycolsep on each side for arrays, a quad in matrices and cases, none inside
        // an align pair and \minalignsep (1 em) between pairs.
        let isArray = env == "array" || env == "darray" || env == "subarray"
        func gap(after j: Int) -> Double {
            if isAlign { return j % 2 == 0 ? 0 : 1 * s.sizeFactor }   // amsmath's \minalignsep (10 pt)
            return 1.0 * s.sizeFactor
        }
        let outer = isArray ? 0.5 * s.sizeFactor : 0
        var colX = [Double](repeating: 0, count: columns)
        var x = outer
        for j in 0..<columns {
            colX[j] = x
            x += colWidth[j] + (j < columns - 1 ? gap(after: j) : 0)
        }
        let tableWidth = x + outer
        // Rows: at least a strut (0.7 and 0.3 of a 1.2em baseline skip, times \arraystretch); display
        // environments add \jot (3pt) between rows.
        let strutH = 0.84 * stretch * s.sizeFactor
        let strutD = 0.36 * stretch * s.sizeFactor
        let jot = p.displayStyle && !env.hasPrefix("cases") ? 0.3 * s.sizeFactor : 0
        let rule = 0.04 * s.sizeFactor
        var rowH: [Double] = [], rowD: [Double] = []
        for (i, r) in rows.enumerated() {
            var h = strutH, d = strutD
            for b in r { h = max(h, b.height); d = max(d, b.depth) }
            if let l = labels[i] { h = max(h, l.height); d = max(d, l.depth) }
            rowH.append(h); rowD.append(d)
        }
        var children: [Box.Placed] = []
        var y = 0.0 // top of the current row, going down (negative)
        if p.frame != .none { y -= rule }
        var baselines: [Double] = []
        for i in rows.indices {
            if i > 0 {
                y -= jot
                if i - 1 < p.rowLines.count, p.rowLines[i - 1] != .none {
                    children.append(contentsOf: MathLayout.ruleLine(x: 0, y: y - rule, length: tableWidth, thickness: rule,
                                                                     horizontal: true, dashed: p.rowLines[i - 1] == .dashed))
                    y -= rule
                }
            }
            let baseline = y - rowH[i]
            baselines.append(baseline)
            for (j, b) in rows[i].enumerated() {
                let cx: Double
                // multline: the first line flush left, the last flush right, the others centred.
                let align: ColumnAlignment = env.hasPrefix("multline") && rows.count > 1
                    ? (i == 0 ? .left : (i == rows.count - 1 ? .right : .center)) : alignment(j)
                switch align {
                case .left: cx = colX[j]
                case .right: cx = colX[j] + colWidth[j] - b.width
                case .center: cx = colX[j] + (colWidth[j] - b.width) / 2
                }
                children.append(Box.Placed(x: cx, y: baseline, box: b))
            }
            y = baseline - rowD[i]
        }
        if p.frame != .none { y -= rule }
        let total = -y
        // Column rules.
        for j in 0..<max(0, columns - 1) where j < p.columnLines.count && p.columnLines[j] != .none {
            let lx = colX[j] + colWidth[j] + gap(after: j) / 2 - rule / 2
            children.append(contentsOf: MathLayout.ruleLine(x: lx, y: y, length: total, thickness: rule, horizontal: false,
                                                             dashed: p.columnLines[j] == .dashed))
        }
        // A `|` before the first column or after the last: a rule on that edge, taking no width (as
        // LaTeX's array package sets it; checked against LuaLaTeX).
        if p.leftLine != .none {
            children.append(contentsOf: MathLayout.ruleLine(x: 0, y: y, length: total, thickness: rule, horizontal: false,
                                                             dashed: p.leftLine == .dashed))
        }
        if p.rightLine != .none {
            children.append(contentsOf: MathLayout.ruleLine(x: tableWidth - rule, y: y, length: total, thickness: rule,
                                                             horizontal: false, dashed: p.rightLine == .dashed))
        }
        if p.frame != .none {
            // `\hline` first and last: rules above and below the table (vertical edges come from `|`
            // first and last in the column specification, drawn above).
            children.append(contentsOf: MathLayout.ruleLine(x: 0, y: -rule, length: tableWidth, thickness: rule, horizontal: true, dashed: p.frame == .dashed))
            children.append(contentsOf: MathLayout.ruleLine(x: 0, y: y, length: tableWidth, thickness: rule, horizontal: true, dashed: p.frame == .dashed))
        }
        // Centre on the axis.
        let axis = c.axisHeight * scale(s)
        let shift = total / 2 + axis
        for k in children.indices { children[k].y += shift }
        var box = Box(width: tableWidth, height: shift, depth: total - shift, content: .list("table"), children: children)
        if labels.contains(where: { $0 != nil }) {
            let labelGap = 2.0 * s.sizeFactor
            let labelWidth = labels.compactMap { $0?.width }.max() ?? 0
            var placed = [Box.Placed(x: tagsOnLeft ? labelWidth + labelGap : 0, y: 0, box: box)]
            for (i, l) in labels.enumerated() {
                guard let l else { continue }
                let x = tagsOnLeft ? 0 : tableWidth + labelGap + labelWidth - l.width
                placed.append(Box.Placed(x: x, y: baselines[i] + shift, box: l))
            }
            box = Box(width: tableWidth + labelGap + labelWidth, height: box.height, depth: box.depth, content: .list("tagged"), children: placed)
        }
        return Atom(box: box, atomClass: .ord)
    }

    /// A table rule as boxes: one filled rule, or dashes (`\hdashline`, `:` columns) of 4 × 4 thicknesses.
    static func ruleLine(x: Double, y: Double, length: Double, thickness: Double, horizontal: Bool, dashed: Bool) -> [Box.Placed] {
        func piece(_ at: Double, _ l: Double) -> Box.Placed {
            horizontal ? Box.Placed(x: x + at, y: y, box: Box(width: l, height: thickness, depth: 0, content: .rule))
                : Box.Placed(x: x, y: y + at, box: Box(width: thickness, height: l, depth: 0, content: .rule))
        }
        guard dashed, length > 0 else { return [piece(0, max(0, length))] }
        let dash = 4 * thickness
        var out: [Box.Placed] = []
        var at = 0.0
        while at < length, out.count < 2000 {
            out.append(piece(at, min(dash, length - at)))
            at += 2 * dash
        }
        return out
    }

    // MARK: - Enclosures, styles, padding

    func enclose(_ nodes: MathNode.Children, notation: String, _ s: LayoutStyle) -> Atom {
        let inner = row(nodes, s).box
        var notations: [String] = []
        for n in notation.split(separator: " ").map(String.init) where !notations.contains(n) { notations.append(n) }
        let t = 0.04 * s.sizeFactor
        if notations.contains("box") || notations.contains("roundedbox") || notations.contains("circle") {
            // \boxed / \fbox: \fboxsep 3pt and \fboxrule 0.4pt around the content; a circle needs more
            // room (the content's corners on an ellipse √2 times its half-sizes).
            let circle = notations.contains("circle") && !notations.contains("box")
            let pad = 0.3 * s.sizeFactor
            let extraX = circle ? (inner.width + 2 * pad) * (2.0.squareRoot() - 1) / 2 : 0
            let extraY = circle ? (inner.height + inner.depth + 2 * pad) * (2.0.squareRoot() - 1) / 2 : 0
            let w = inner.width + 2 * pad + 2 * t + 2 * extraX
            let h = inner.height + pad + t + extraY, d = inner.depth + pad + t + extraY
            let frame = Box(width: w, height: h, depth: d, content: circle ? .ellipse(thickness: t) : .frame(thickness: t, dashed: false))
            let box = Box(width: w, height: h, depth: d, content: .list("box"),
                          children: [Box.Placed(x: 0, y: 0, box: frame), Box.Placed(x: pad + t + extraX, y: 0, box: inner)])
            return Atom(box: box, atomClass: .ord)
        }
        var children = [Box.Placed(x: 0, y: 0, box: inner)]
        let h = inner.height, d = inner.depth, w = inner.width
        let over = 0.1 * s.sizeFactor
        func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
            children.append(Box.Placed(x: 0, y: 0, box: Box(width: 0, height: 0, depth: 0, content: .line(x1: x1, y1: y1, x2: x2, y2: y2, thickness: t))))
        }
        for n in notations {
            switch n {
            case "updiagonalstrike": line(-over / 2, -d - over / 2, w + over / 2, h + over / 2)
            case "downdiagonalstrike": line(-over / 2, h + over / 2, w + over / 2, -d - over / 2)
            case "horizontalstrike": line(0, c.axisHeight * scale(s), w, c.axisHeight * scale(s))
            case "verticalstrike": line(w / 2, -d, w / 2, h)
            case "top": line(0, h, w, h)
            case "bottom": line(0, -d, w, -d)
            case "left": line(0, -d, 0, h)
            case "right", "actuarial": line(w, -d, w, h); if n == "actuarial" { line(0, h, w, h) }
            case "phasorangle": line(0, -d, h * 0.5, h); line(0, -d, w, -d)
            default: break
            }
        }
        return Atom(box: Box(width: w, height: h, depth: d, content: .list("enclose"), children: children), atomClass: .ord)
    }

    func styled(_ nodes: MathNode.Children, _ p: StyleProperties, _ s0: LayoutStyle) -> Atom {
        var s = s0
        if let d = p.displayStyle { s.display = d; s.level = d ? 0 : s.level; if !d && s.level == 0 { s.display = false } }
        if let level = p.scriptLevel { s.level = max(0, min(2, level)); if level > 0 { s.display = false } }
        if let m = p.mathSize, m > 0 { s.sizeFactor = min(max(m, 0.1), 10) }  // size commands are absolute (relative to normal)
        if let m = p.mathSize, m > 0, !nodes.isEmpty, nodes.allSatisfy({ if case .text = $0.kind { return true }; return false }) {
            // A size command in text (`\textrm{\scriptsize 12}`) sets an absolute size, in a superscript
            // too, in the text font's optical size for it: LaTeX's 7 pt and 5 pt faces (Latin Modern Roman
            // 7 and 5) are the script and scriptscript text faces.
            let size = min(max(m, 0.1), 10)
            s.display = false
            s.level = size <= c.scriptScriptPercentScaleDown * 1.05 ? 2 : (size <= c.scriptPercentScaleDown * 1.05 ? 1 : 0)
            s.sizeFactor = 1
            s.sizeFactor = size / scale(s)
        }
        var a = row(nodes, s)
        if let color = p.color, let rgba = RGBAColor(color) {
            a.box = a.box.wrapped(.color(rgba))
        }
        if let bg = p.background, let rgba = RGBAColor(bg) {
            let pad = 0.3 * s.sizeFactor
            let inner = a.box
            a.box = Box(width: inner.width + 2 * pad, height: inner.height + pad, depth: inner.depth + pad, content: .background(rgba),
                        children: [Box.Placed(x: pad, y: 0, box: inner)])
        }
        if nodes.count > 1 { a.glyph = nil }
        return a
    }

    func padded(_ nodes: MathNode.Children, _ p: PaddedProperties, _ s: LayoutStyle) -> Atom {
        let inner = row(nodes, s)
        let b = inner.box
        // `\llap` and `\clap` move the content by its own width (−1 and −½ of it), MathML's `lspace` in em.
        let shift = (p.leftShift ?? 0) * s.sizeFactor + (p.leftShiftWidths ?? 0) * b.width
        let box = Box(width: p.width.map { $0 * s.sizeFactor } ?? b.width, height: p.height.map { $0 * s.sizeFactor } ?? b.height,
                      depth: p.depth.map { $0 * s.sizeFactor } ?? b.depth, content: .list("padded"),
                      children: [Box.Placed(x: shift, y: 0, box: b)])
        var a = inner
        a.box = box
        a.glyph = nil
        return a
    }
}

extension MathLayout {
    /// A TeX length in em at 10pt (the parser's ``Dimension``), kept within ±100 em; nil when unreadable.
    static func length(_ text: String) -> Double? {
        Dimension.parse(text).map { max(-100, min(100, $0)) }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}

extension MathNode.Children {
    subscript(safe i: Int) -> MathNode? { i >= 0 && i < count ? self[i] : nil }
}

// MathSyntax has no one-scalar helper (`soleScalar` lives in MathSemantics, internal there), so the
// layout keeps its own, private to this file, the only one that uses it.
private extension String {
    /// Whether the string is exactly one Unicode scalar (an operator or a letter, not a name).
    var isOneScalar: Bool {
        var scalars = unicodeScalars.makeIterator()
        return scalars.next() != nil && scalars.next() == nil
    }

    /// The string's only Unicode scalar, or nil.
    var soleScalar: Unicode.Scalar? {
        var scalars = unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}
