import MathSyntax

/// How a TeX symbol takes part in a formula: its atom class (TeXbook ch. 17) and whether it is an
/// identifier (`mi`) or an operator (`mo`).
package enum SymbolClass: Sendable, Hashable {
    /// An ordinary symbol that names something: a Greek letter, ∞, ℵ, ∅ (becomes an identifier).
    case ord
    /// An ordinary symbol that acts as an operator: `/`, `\backslash`, `|`, `\angle`, `\forall`,
    /// `\prime` (becomes an operator of class ``AtomClass/ord``).
    case ordOperator
    /// A binary operator (`+`, `\times`, `\cup`).
    case bin
    /// A relation (`=`, `\leq`, `\in`, arrows).
    case rel
    /// An opening delimiter (`(`, `\langle`, `\lfloor`).
    case open
    /// A closing delimiter (`)`, `\rangle`, `!`).
    case close
    /// Punctuation (`,`, `;`, `\colon`).
    case punct
    /// An inner atom (`\ldots`, `\cdots`).
    case inner
    /// A large operator; `limits` when its limits go above and below in display style
    /// (`\sum` yes, `\int` no).
    case largeOperator(limits: Bool)
}

/// One entry of the symbol table: the Unicode text a command stands for and its class.
package struct TeXSymbol: Sendable, Hashable {
    /// The Unicode text (usually one character; a few are two, such as `\coloneq` → `:−`).
    package let text: String
    /// The symbol's class.
    package let symbolClass: SymbolClass
    /// The properties of the operator node the parser makes for this symbol, or nil for an
    /// identifier (``SymbolClass/ord``); computed once here rather than at every use.
    package let operatorProperties: OperatorProperties?

    /// Creates a symbol.
    package init(text: String, symbolClass: SymbolClass) {
        self.text = text
        self.symbolClass = symbolClass
        self.operatorProperties = Self.operatorProperties(text, symbolClass)
    }

    /// The operator properties of a symbol of `symbolClass` written `text`.
    ///
    /// Starts from ``OperatorDictionary/properties(for:)`` (so arrows keep their stretchiness) and
    /// lets the TeX class decide the atom class: `\lvert` opens even though `|` is ordinary in the
    /// dictionary; `\lhd` is binary in TeX though ⊲ is a relation in Unicode. A fence written
    /// plainly does not stretch (`\left…\right` makes it stretch), only an opening or closing
    /// symbol (or an ordinary one the dictionary calls a fence, such as `|`) is a fence, and a large
    /// operator takes its limits from its class alone.
    private static func operatorProperties(_ text: String, _ symbolClass: SymbolClass) -> OperatorProperties? {
        let atomClass: AtomClass
        switch symbolClass {
        case .ord: return nil
        case .largeOperator(let limits):
            return OperatorProperties(atomClass: .op, largeOperator: true, movableLimits: limits)
        case .ordOperator: atomClass = .ord
        case .bin: atomClass = .bin
        case .rel: atomClass = .rel
        case .open: atomClass = .open
        case .close: atomClass = .close
        case .punct: atomClass = .punct
        case .inner: atomClass = .inner
        }
        var p = OperatorDictionary.properties(for: text)
        p.atomClass = atomClass
        if atomClass == .open || atomClass == .close { p.stretchy = false; p.fence = true }
        if atomClass != .open && atomClass != .close && atomClass != .ord { p.fence = false }
        if atomClass == .ord { p.stretchy = false }
        p.largeOperator = false
        p.movableLimits = false
        return p
    }
}

/// TeX's plain symbols: commands without arguments that stand for one character (`\alpha`,
/// `\leq`, `\sum`), the ASCII characters of math mode, text-mode symbols and accents, and the
/// precomposed negations `\not` can use.
///
/// The data is one text table, ``table``, parsed once on first use; one symbol per line, so adding
/// a symbol is adding a line. Coverage: the symbols of KaTeX's list of supported functions
/// (checked by name, not copied), plus a few common LaTeX names (`\iiiint`, `\iddots`, `\l`).
package enum SymbolTable {
    /// The math-mode symbol a command name (without its backslash) stands for:
    /// `alpha` → α ord, `leq` → ≤ rel, `sum` → ∑ large operator with limits, `{` → `{` open.
    package static func math(_ name: String) -> TeXSymbol? {
        Tables.shared.math[name]
    }

    /// The text-mode character(s) of a command name: `ss` → ß, `o` → ø, `textbackslash` → `\`,
    /// `$` → `$`.
    package static func textSymbol(_ name: String) -> String? {
        Tables.shared.text[name]
    }

    /// The combining mark of a text-mode accent command: `'` → U+0301, `"` → U+0308,
    /// `v` → U+030C, `c` → U+0327.
    package static func textAccent(_ name: String) -> Unicode.Scalar? {
        Tables.shared.accents[name]
    }

    /// The precomposed negation of a relation for `\not`: `=` → `≠`, `∈` → `∉`, `⊂` → `⊄`.
    /// Nil when Unicode has none; the caller then appends U+0338 COMBINING LONG SOLIDUS OVERLAY.
    package static func negated(_ text: String) -> String? {
        Tables.shared.negations[text]
    }

    /// The math-mode meaning of an ASCII character typed in a formula: `-` → `−` (U+2212) bin,
    /// `*` → `∗` bin, `'` → `′` ordinary operator, `:` rel, `!` close. Nil for letters, digits and
    /// characters the parser treats specially (`\`, `{`, `}`, `$`, `&`, `#`, `^`, `_`, `~`, `%`).
    /// (The parser reads these from ``ParserTables``, as leaves; the `[char]` section takes ASCII only.)
    package static func character(_ scalar: Unicode.Scalar) -> TeXSymbol? {
        Tables.shared.characters[scalar]
    }

    /// Every math symbol name, sorted: for coverage tests.
    package static var allMathNames: [String] {
        Tables.shared.math.keys.sorted()
    }

    /// Every math symbol by name, in no order (the parser tables take them all).
    static var mathSymbols: [String: TeXSymbol] {
        Tables.shared.math
    }

    /// Every text symbol name, sorted: for coverage tests.
    package static var allTextNames: [String] {
        Tables.shared.text.keys.sorted()
    }

    /// Lines of ``table`` that could not be read or that define a name twice; empty when the
    /// table is sound. The tests require it to be empty.
    package static var tableProblems: [String] {
        Tables.shared.problems
    }

    /// The parsed table.
    private struct Tables: Sendable {
        var math: [String: TeXSymbol] = [:]
        var text: [String: String] = [:]
        var accents: [String: Unicode.Scalar] = [:]
        var negations: [String: String] = [:]
        /// The `[char]` section: ASCII characters only.
        var characters: [Unicode.Scalar: TeXSymbol] = [:]
        var problems: [String] = []

        static let shared = Tables(parsing: SymbolTable.table)

        init(parsing table: String) {
            var section = ""
            // Split on bytes (this runs at every start-up); a field never contains a space or tab.
            var table = table
            var fields: [String] = []
            math.reserveCapacity(1024)
            text.reserveCapacity(128)
            characters.reserveCapacity(64)
            table.withUTF8 { (all: UnsafeBufferPointer<UInt8>) -> Void in
                for (lineNumber, line) in ByteLines(all) {
                    let lineStart = line.lowerBound, lineEnd = line.upperBound
                    if lineStart == lineEnd || all[lineStart] == 0x23 { continue }  // blank or comment
                    fields.removeAll(keepingCapacity: true)
                    var i = lineStart
                    while i < lineEnd {
                        while i < lineEnd, all[i] == 0x20 || all[i] == 0x09 { i += 1 }
                        let start = i
                        while i < lineEnd, all[i] != 0x20, all[i] != 0x09 { i += 1 }
                        if start < i { fields.append(String(decoding: all[start..<i], as: UTF8.self)) }
                    }
                    guard let first = fields.first, !first.hasPrefix("#") else { continue }
                    var location: String { "line \(lineNumber): \(fields.joined(separator: " "))" }
                    if fields.count == 1, first.count > 2, first.hasPrefix("["), first.hasSuffix("]") {
                        section = first
                        continue
                    }
                    let arity = section == "[math]" || section == "[char]" ? 3 : 2
                    guard fields.count >= arity, fields.dropFirst(arity).first.map({ $0.hasPrefix("#") }) ?? true,
                          let value = Self.decodeText(fields[1]) else {
                        problems.append("malformed \(location)")
                        continue
                    }
                    let key = Self.decodeName(first)
                    switch section {
                    case "[math]", "[char]":
                        guard let symbolClass = Self.symbolClass(fields[2]) else {
                            problems.append("unknown class \(location)")
                            continue
                        }
                        let symbol = TeXSymbol(text: value, symbolClass: symbolClass)
                        if section == "[math]" {
                            if math.updateValue(symbol, forKey: key) != nil { problems.append("duplicate \(location)") }
                        } else {
                            guard key.unicodeScalars.count == 1, let scalar = key.unicodeScalars.first else {
                                problems.append("not one character \(location)")
                                continue
                            }
                            guard scalar.isASCII else {
                                problems.append("not ASCII \(location)")
                                continue
                            }
                            if characters[scalar] != nil { problems.append("duplicate \(location)") }
                            characters[scalar] = symbol
                        }
                    case "[text]":
                        if text[key] != nil { problems.append("duplicate \(location)") }
                        text[key] = value
                    case "[accent]":
                        guard value.unicodeScalars.count == 1, let mark = value.unicodeScalars.first else {
                            problems.append("accent is not one mark \(location)")
                            continue
                        }
                        if accents[key] != nil { problems.append("duplicate \(location)") }
                        accents[key] = mark
                    case "[not]":
                        if negations[key] != nil { problems.append("duplicate \(location)") }
                        negations[key] = value
                    default:
                        problems.append("outside a section \(location)")
                    }
                }
            }
        }

        /// A name as written in the table: the leading backslash is dropped (`\alpha` → `alpha`,
        /// `\#` → `#`); other keys (`[char]`, `[not]`) are taken as they are.
        private static func decodeName(_ field: String) -> String {
            let bytes = field.utf8
            guard bytes.first == 0x5C, bytes.count > 1 else { return field }  // `\`
            // After an ASCII second byte the backslash is a character of its own: its byte is dropped.
            if bytes[bytes.index(after: bytes.startIndex)] < 0x80 { return String(decoding: bytes.dropFirst(), as: UTF8.self) }
            return String(field.dropFirst())
        }

        /// A text field: the characters themselves, or `U+XXXX` with further scalars joined by `+`
        /// (`U+2A7D+0338`) for marks and characters that are hard to read in source.
        private static func decodeText(_ field: String) -> String? {
            // `U+` bytes first (most fields are the characters themselves).
            let bytes = field.utf8
            guard bytes.count > 2, bytes.first == 0x55, bytes[bytes.index(after: bytes.startIndex)] == 0x2B,
                  field.hasPrefix("U+") else { return field }
            var result = String.UnicodeScalarView()
            for part in field.dropFirst(2).split(separator: "+") {
                let digits = part.hasPrefix("U") ? part.dropFirst() : part
                guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
                result.append(scalar)
            }
            return result.isEmpty ? nil : String(result)
        }

        /// The class column.
        private static func symbolClass(_ field: String) -> SymbolClass? {
            switch field {
            case "ord": return .ord
            case "ordop": return .ordOperator
            case "bin": return .bin
            case "rel": return .rel
            case "open": return .open
            case "close": return .close
            case "punct": return .punct
            case "inner": return .inner
            case "op": return .largeOperator(limits: false)
            case "op-limits": return .largeOperator(limits: true)
            default: return nil
            }
        }
    }

    /// The symbol table. Sections:
    ///
    /// - `[math]`: `\name  text  class` — class is `ord` (identifier), `ordop` (ordinary operator),
    ///   `bin`, `rel`, `open`, `close`, `punct`, `inner`, `op` (large operator, limits beside) or
    ///   `op-limits` (large operator, limits above and below in display style).
    /// - `[char]`: `character  text  class` for ASCII characters in math mode.
    /// - `[text]`: `\name  text` for text mode.
    /// - `[accent]`: `\name  U+mark` for text-mode accents (combining marks).
    /// - `[not]`: `relation  negation` for `\not`.
    ///
    /// Text is written as itself or as `U+XXXX[+XXXX…]`. A line starting with `#` is a comment, and
    /// so is anything after the last column. The delimiter is `##"""` so that `\#` stays literal.
    static let table = ##"""
        [math]
        # ── Greek, lowercase ─────────────────────────────────────────────────────────────────
        \alpha              α           ord
        \beta               β           ord
        \gamma              γ           ord
        \delta              δ           ord
        \epsilon            ϵ           ord     # U+03F5 lunate, as in TeX
        \varepsilon         ε           ord
        \zeta               ζ           ord
        \eta                η           ord
        \theta              θ           ord
        \vartheta           ϑ           ord
        \thetasym           ϑ           ord
        \iota               ι           ord
        \kappa              κ           ord
        \varkappa           ϰ           ord
        \lambda             λ           ord
        \mu                 μ           ord
        \nu                 ν           ord
        \xi                 ξ           ord
        \omicron            ο           ord
        \pi                 π           ord
        \varpi              ϖ           ord
        \rho                ρ           ord
        \varrho             ϱ           ord
        \sigma              σ           ord
        \varsigma           ς           ord
        \tau                τ           ord
        \upsilon            υ           ord
        \phi                ϕ           ord     # U+03D5 stroked, as in TeX
        \varphi             φ           ord
        \chi                χ           ord
        \psi                ψ           ord
        \omega              ω           ord
        \digamma            ϝ           ord

        # ── Greek, uppercase ─────────────────────────────────────────────────────────────────
        \Alpha              Α           ord
        \Beta               Β           ord
        \Gamma              Γ           ord
        \Delta              Δ           ord
        \Epsilon            Ε           ord
        \Zeta               Ζ           ord
        \Eta                Η           ord
        \Theta              Θ           ord
        \Iota               Ι           ord
        \Kappa              Κ           ord
        \Lambda             Λ           ord
        \Mu                 Μ           ord
        \Nu                 Ν           ord
        \Xi                 Ξ           ord
        \Omicron            Ο           ord
        \Pi                 Π           ord
        \Rho                Ρ           ord
        \Sigma              Σ           ord
        \Tau                Τ           ord
        \Upsilon            Υ           ord
        \Phi                Φ           ord
        \Chi                Χ           ord
        \Psi                Ψ           ord
        \Omega              Ω           ord
        # amsmath's slanted capitals are the mathematical italic ones.
        \varGamma           U+1D6E4     ord
        \varDelta           U+1D6E5     ord
        \varTheta           U+1D6E9     ord
        \varLambda          U+1D6EC     ord
        \varXi              U+1D6EF     ord
        \varPi              U+1D6F1     ord
        \varSigma           U+1D6F4     ord
        \varUpsilon         U+1D6F6     ord
        \varPhi             U+1D6F7     ord
        \varPsi             U+1D6F9     ord
        \varOmega           U+1D6FA     ord

        # ── Hebrew and letterlike symbols ────────────────────────────────────────────────────
        \aleph              ℵ           ord
        \alef               ℵ           ord
        \alefsym            ℵ           ord
        \beth               ℶ           ord
        \gimel              ℷ           ord
        \daleth             ℸ           ord
        \hbar               ℏ           ord
        \hslash             ℏ           ord
        \ell                ℓ           ord
        \wp                 ℘           ord
        \weierp             ℘           ord
        \Re                 ℜ           ord
        \real               ℜ           ord
        \Im                 ℑ           ord
        \image              ℑ           ord
        \mho                ℧           ord
        \Finv               Ⅎ           ord
        \Game               ⅁           ord
        \eth                ð           ord
        \imath              ı           ord
        \jmath              ȷ           ord
        \Bbbk               U+1D55C     ord
        \N                  ℕ           ord
        \natnums            ℕ           ord
        \Z                  ℤ           ord
        \R                  ℝ           ord
        \reals              ℝ           ord
        \Reals              ℝ           ord
        \cnums              ℂ           ord
        \Complex            ℂ           ord
        \partial            ∂           ord
        \nabla              ∇           ord
        \infty              ∞           ord
        \infin              ∞           ord
        \emptyset           ∅           ord
        \empty              ∅           ord
        \varnothing         ∅           ord
        \top                ⊤           ord
        \bot                ⊥           ord

        # ── Ordinary symbols: shapes, suits, signs ───────────────────────────────────────────
        \triangle           △           ord
        \triangledown       ▽           ord
        \blacktriangle      ▲           ord
        \blacktriangledown  ▼           ord
        \square             □           ord
        \Box                □           ord
        \blacksquare        ■           ord
        \Diamond            ◊           ord
        \lozenge            ◊           ord
        \blacklozenge       ⧫           ord
        \bigstar            ★           ord
        \circledS           Ⓢ           ord
        \circledR           ®           ord
        \copyright          ©           ord
        \clubsuit           ♣           ord
        \clubs              ♣           ord
        \diamondsuit        ♢           ord
        \diamonds           ♢           ord
        \heartsuit          ♡           ord
        \hearts             ♡           ord
        \spadesuit          ♠           ord
        \spades             ♠           ord
        \flat               ♭           ord
        \natural            ♮           ord
        \sharp              ♯           ord
        \checkmark          ✓           ord
        \maltese            ✠           ord
        \degree             °           ord
        \yen                ¥           ord
        \pounds             £           ord
        \mathsterling       £           ord
        \S                  §           ord
        \sect               §           ord
        \P                  ¶           ord
        \dag                †           ord
        \ddag               ‡           ord
        \#                  #           ord
        \$                  $           ord
        \%                  %           ord
        \&                  &           ord
        \_                  _           ord

        # ── Ordinary symbols that act as operators ───────────────────────────────────────────
        \forall             ∀           ordop
        \exists             ∃           ordop
        \exist              ∃           ordop
        \nexists            ∄           ordop
        \complement         ∁           ordop
        \neg                ¬           ordop
        \lnot               ¬           ordop
        \angle              ∠           ordop
        \measuredangle      ∡           ordop
        \sphericalangle     ∢           ordop
        \prime              ′           ordop
        \backprime          ‵           ordop
        \surd               √           ordop
        \backslash          \           ordop
        \vert               |           ordop
        \|                  ‖           ordop
        \Vert               ‖           ordop
        \diagup             ╱           ordop
        \diagdown           ╲           ordop
        \vdots              ⋮           ordop

        # ── Binary operators ─────────────────────────────────────────────────────────────────
        \pm                 ±           bin
        \plusmn             ±           bin
        \mp                 ∓           bin
        \times              ×           bin
        \div                ÷           bin
        \cdot               ⋅           bin
        \sdot               ⋅           bin
        \centerdot          ⋅           bin
        \ast                ∗           bin
        \star               ⋆           bin
        \circ               ∘           bin
        \bullet             ∙           bin
        \bull               ∙           bin
        \bigcirc            ◯           bin
        \diamond            ⋄           bin
        \oplus              ⊕           bin
        \ominus             ⊖           bin
        \otimes             ⊗           bin
        \oslash             ⊘           bin
        \odot               ⊙           bin
        \circledcirc        ⊚           bin
        \circledast         ⊛           bin
        \circleddash        ⊝           bin
        \boxplus            ⊞           bin
        \boxminus           ⊟           bin
        \boxtimes           ⊠           bin
        \boxdot             ⊡           bin
        \cap                ∩           bin
        \cup                ∪           bin
        \Cap                ⋒           bin
        \Cup                ⋓           bin
        \doublecap          ⋒           bin
        \doublecup          ⋓           bin
        \uplus              ⊎           bin
        \sqcap              ⊓           bin
        \sqcup              ⊔           bin
        \vee                ∨           bin
        \lor                ∨           bin
        \wedge              ∧           bin
        \land               ∧           bin
        \barwedge           ⊼           bin
        \veebar             ⊻           bin
        \doublebarwedge     ⩞           bin
        \curlyvee           ⋎           bin
        \curlywedge         ⋏           bin
        \setminus           ∖           bin
        \smallsetminus      ∖           bin
        \wr                 ≀           bin
        \amalg              ⨿           bin
        \dotplus            ∔           bin
        \divideontimes      ⋇           bin
        \intercal           ⊺           bin
        \ltimes             ⋉           bin
        \rtimes             ⋊           bin
        \leftthreetimes     ⋋           bin
        \rightthreetimes    ⋌           bin
        \bigtriangleup      △           bin
        \bigtriangledown    ▽           bin
        \triangleleft       ◃           bin
        \triangleright      ▹           bin
        \lhd                ⊲           bin
        \rhd                ⊳           bin
        \unlhd              ⊴           bin
        \unrhd              ⊵           bin
        \lessdot            ⋖           bin
        \gtrdot             ⋗           bin
        \dagger             †           bin
        \ddagger            ‡           bin
        \Dagger             ‡           bin
        \And                &           bin
        \minuso             ⦵           bin

        # ── Relations ────────────────────────────────────────────────────────────────────────
        \lt                 <           rel
        \gt                 >           rel
        \le                 ≤           rel
        \leq                ≤           rel
        \ge                 ≥           rel
        \geq                ≥           rel
        \leqq               ≦           rel
        \geqq               ≧           rel
        \leqslant           ⩽           rel
        \geqslant           ⩾           rel
        \eqslantless        ⪕           rel
        \eqslantgtr         ⪖           rel
        \lesssim            ≲           rel
        \gtrsim             ≳           rel
        \lessapprox         ⪅           rel
        \gtrapprox          ⪆           rel
        \ll                 ≪           rel
        \gg                 ≫           rel
        \lll                ⋘           rel
        \llless             ⋘           rel
        \ggg                ⋙           rel
        \gggtr              ⋙           rel
        \lessgtr            ≶           rel
        \gtrless            ≷           rel
        \lesseqgtr          ⋚           rel
        \gtreqless          ⋛           rel
        \lesseqqgtr         ⪋           rel
        \gtreqqless         ⪌           rel
        \ne                 ≠           rel
        \neq                ≠           rel
        \equiv              ≡           rel
        \sim                ∼           rel
        \thicksim           ∼           rel
        \simeq              ≃           rel
        \backsim            ∽           rel
        \backsimeq          ⋍           rel
        \eqsim              ≂           rel
        \approx             ≈           rel
        \thickapprox        ≈           rel
        \approxeq           ≊           rel
        \cong               ≅           rel
        \asymp              ≍           rel
        \doteq              ≐           rel
        \doteqdot           ≑           rel
        \Doteq              ≑           rel
        \risingdotseq       ≓           rel
        \fallingdotseq      ≒           rel
        \eqcirc             ≖           rel
        \circeq             ≗           rel
        \triangleq          ≜           rel
        \bumpeq             ≏           rel
        \Bumpeq             ≎           rel
        \propto             ∝           rel
        \varpropto          ∝           rel
        \prec               ≺           rel
        \succ               ≻           rel
        \preceq             ⪯           rel
        \succeq             ⪰           rel
        \preccurlyeq        ≼           rel
        \succcurlyeq        ≽           rel
        \curlyeqprec        ⋞           rel
        \curlyeqsucc        ⋟           rel
        \precsim            ≾           rel
        \succsim            ≿           rel
        \precapprox         ⪷           rel
        \succapprox         ⪸           rel
        \in                 ∈           rel
        \isin               ∈           rel
        \notin              ∉           rel
        \ni                 ∋           rel
        \owns               ∋           rel
        \notni              ∌           rel
        \backepsilon        ∍           rel
        \subset             ⊂           rel
        \sub                ⊂           rel
        \supset             ⊃           rel
        \subseteq           ⊆           rel
        \sube               ⊆           rel
        \supseteq           ⊇           rel
        \supe               ⊇           rel
        \subseteqq          ⫅           rel
        \supseteqq          ⫆           rel
        \Subset             ⋐           rel
        \Supset             ⋑           rel
        \sqsubset           ⊏           rel
        \sqsupset           ⊐           rel
        \sqsubseteq         ⊑           rel
        \sqsupseteq         ⊒           rel
        \mid                ∣           rel
        \shortmid           ∣           rel
        \parallel           ∥           rel
        \shortparallel      ∥           rel
        \perp               ⊥           rel
        \vdash              ⊢           rel
        \dashv              ⊣           rel
        \models             ⊧           rel
        \vDash              ⊨           rel
        \Vdash              ⊩           rel
        \Vvdash             ⊪           rel
        \bowtie             ⋈           rel
        \Join               ⋈           rel
        \smile              ⌣           rel
        \frown              ⌢           rel
        \smallsmile         ⌣           rel
        \smallfrown         ⌢           rel
        \between            ≬           rel
        \pitchfork          ⋔           rel
        \vartriangle        △           rel
        \vartriangleleft    ⊲           rel
        \vartriangleright   ⊳           rel
        \trianglelefteq     ⊴           rel
        \trianglerighteq    ⊵           rel
        \blacktriangleleft  ◀           rel
        \blacktriangleright ▶           rel
        \therefore          ∴           rel
        \because            ∵           rel
        \origof             ⊶           rel
        \imageof            ⊷           rel
        \multimap           ⊸           rel

        # ── Colons (mathtools names as KaTeX spells them) ────────────────────────────────────
        \vcentcolon         :           rel
        \ratio              :           rel
        \ordinarycolon      :           rel
        \dblcolon           ∷           rel
        \coloncolon         ∷           rel
        \coloneqq           ≔           rel
        \colonequals        ≔           rel
        \Coloneqq           ⩴           rel
        \coloncolonequals   ⩴           rel
        \coloneq            :−          rel
        \colonminus         :−          rel
        \Coloneq            ∷−          rel
        \coloncolonminus    ∷−          rel
        \eqqcolon           ≕           rel
        \equalscolon        ≕           rel
        \Eqqcolon           =∷          rel
        \equalscoloncolon   =∷          rel
        \eqcolon            ∹           rel
        \minuscolon         ∹           rel
        \Eqcolon            −∷          rel
        \minuscoloncolon    −∷          rel
        \colonapprox        :≈          rel
        \Colonapprox        ∷≈          rel
        \coloncolonapprox   ∷≈          rel
        \colonsim           :∼          rel
        \Colonsim           ∷∼          rel
        \coloncolonsim      ∷∼          rel
        \simcolon           ∼:          rel
        \simcoloncolon      ∼∷          rel
        \approxcolon        ≈:          rel
        \approxcoloncolon   ≈∷          rel

        # ── Negated relations ────────────────────────────────────────────────────────────────
        \nless              ≮           rel
        \ngtr               ≯           rel
        \nleq               ≰           rel
        \ngeq               ≱           rel
        \nleqslant          U+2A7D+0338 rel     # no precomposed form
        \ngeqslant          U+2A7E+0338 rel
        \nleqq              U+2266+0338 rel
        \ngeqq              U+2267+0338 rel
        \lneq               ⪇           rel
        \gneq               ⪈           rel
        \lneqq              ≨           rel
        \gneqq              ≩           rel
        \lvertneqq          ≨           rel     # same meaning, other glyph
        \gvertneqq          ≩           rel
        \lnsim              ⋦           rel
        \gnsim              ⋧           rel
        \lnapprox           ⪉           rel
        \gnapprox           ⪊           rel
        \nprec              ⊀           rel
        \nsucc              ⊁           rel
        \npreceq            ⋠           rel
        \nsucceq            ⋡           rel
        \precneqq           ⪵           rel
        \succneqq           ⪶           rel
        \precnsim           ⋨           rel
        \succnsim           ⋩           rel
        \precnapprox        ⪹           rel
        \succnapprox        ⪺           rel
        \nsim               ≁           rel
        \ncong              ≇           rel     # not congruent: U+2247, the negation of ≅
        \nmid               ∤           rel
        \nshortmid          ∤           rel
        \nparallel          ∦           rel
        \nshortparallel     ∦           rel
        \nvdash             ⊬           rel
        \nvDash             ⊭           rel
        \nVdash             ⊮           rel
        \nVDash             ⊯           rel
        \ntriangleleft      ⋪           rel
        \ntriangleright     ⋫           rel
        \ntrianglelefteq    ⋬           rel
        \ntrianglerighteq   ⋭           rel
        \nsubseteq          ⊈           rel
        \nsupseteq          ⊉           rel
        \nsubseteqq         U+2AC5+0338 rel
        \nsupseteqq         U+2AC6+0338 rel
        \subsetneq          ⊊           rel
        \supsetneq          ⊋           rel
        \subsetneqq         ⫋           rel
        \supsetneqq         ⫌           rel
        \varsubsetneq       ⊊           rel
        \varsupsetneq       ⊋           rel
        \varsubsetneqq      ⫋           rel
        \varsupsetneqq      ⫌           rel

        # ── Arrows ───────────────────────────────────────────────────────────────────────────
        \leftarrow          ←           rel
        \gets               ←           rel
        \larr               ←           rel
        \rightarrow         →           rel
        \to                 →           rel
        \rarr               →           rel
        \leftrightarrow     ↔           rel
        \harr               ↔           rel
        \lrarr              ↔           rel
        \Leftarrow          ⇐           rel
        \lArr               ⇐           rel
        \Larr               ⇐           rel
        \Rightarrow         ⇒           rel
        \rArr               ⇒           rel
        \Rarr               ⇒           rel
        \Leftrightarrow     ⇔           rel
        \hArr               ⇔           rel
        \Harr               ⇔           rel
        \lrArr              ⇔           rel
        \Lrarr              ⇔           rel
        \longleftarrow      ⟵           rel
        \longrightarrow     ⟶           rel
        \longleftrightarrow ⟷           rel
        \Longleftarrow      ⟸           rel
        \Longrightarrow     ⟹           rel
        \Longleftrightarrow ⟺           rel
        \mapsto             ↦           rel
        \longmapsto         ⟼           rel
        \hookleftarrow      ↩           rel
        \hookrightarrow     ↪           rel
        \uparrow            ↑           rel
        \uarr               ↑           rel
        \downarrow          ↓           rel
        \darr               ↓           rel
        \updownarrow        ↕           rel
        \Uparrow            ⇑           rel
        \uArr               ⇑           rel
        \Uarr               ⇑           rel
        \Downarrow          ⇓           rel
        \dArr               ⇓           rel
        \Darr               ⇓           rel
        \Updownarrow        ⇕           rel
        \nearrow            ↗           rel
        \searrow            ↘           rel
        \swarrow            ↙           rel
        \nwarrow            ↖           rel
        \leftharpoonup      ↼           rel
        \leftharpoondown    ↽           rel
        \rightharpoonup     ⇀           rel
        \rightharpoondown   ⇁           rel
        \upharpoonleft      ↿           rel
        \upharpoonright     ↾           rel
        \restriction        ↾           rel
        \downharpoonleft    ⇃           rel
        \downharpoonright   ⇂           rel
        \rightleftharpoons  ⇌           rel
        \leftrightharpoons  ⇋           rel
        \leftleftarrows     ⇇           rel
        \rightrightarrows   ⇉           rel
        \leftrightarrows    ⇆           rel
        \rightleftarrows    ⇄           rel
        \upuparrows         ⇈           rel
        \downdownarrows     ⇊           rel
        \Lleftarrow         ⇚           rel
        \Rrightarrow        ⇛           rel
        \twoheadleftarrow   ↞           rel
        \twoheadrightarrow  ↠           rel
        \leftarrowtail      ↢           rel
        \rightarrowtail     ↣           rel
        \looparrowleft      ↫           rel
        \looparrowright     ↬           rel
        \curvearrowleft     ↶           rel
        \curvearrowright    ↷           rel
        \circlearrowleft    ↺           rel
        \circlearrowright   ↻           rel
        \Lsh                ↰           rel
        \Rsh                ↱           rel
        \leftrightsquigarrow ↭          rel
        \rightsquigarrow    ⇝           rel
        \leadsto            ⇝           rel
        \dashleftarrow      ⇠           rel
        \dashrightarrow     ⇢           rel
        \nleftarrow         ↚           rel
        \nrightarrow        ↛           rel
        \nleftrightarrow    ↮           rel
        \nLeftarrow         ⇍           rel
        \nRightarrow        ⇏           rel
        \nLeftrightarrow    ⇎           rel

        # ── Large operators ──────────────────────────────────────────────────────────────────
        \sum                ∑           op-limits
        \prod               ∏           op-limits
        \coprod             ∐           op-limits
        \bigcup             ⋃           op-limits
        \bigcap             ⋂           op-limits
        \bigvee             ⋁           op-limits
        \bigwedge           ⋀           op-limits
        \bigoplus           ⨁           op-limits
        \bigotimes          ⨂           op-limits
        \bigodot            ⨀           op-limits
        \biguplus           ⨄           op-limits
        \bigsqcup           ⨆           op-limits
        \int                ∫           op
        \intop              ∫           op
        \smallint           ∫           op
        \iint               ∬           op
        \iiint              ∭           op
        \iiiint             ⨌           op
        \oint               ∮           op
        \oiint              ∯           op
        \oiiint             ∰           op

        # ── Delimiters ───────────────────────────────────────────────────────────────────────
        \lparen             (           open
        \rparen             )           close
        \lbrack             [           open
        \rbrack             ]           close
        \{                  {           open
        \}                  }           close
        \lbrace             {           open
        \rbrace             }           close
        \langle             ⟨           open
        \rangle             ⟩           close
        \lang               ⟨           open
        \rang               ⟩           close
        \lvert              |           open
        \rvert              |           close
        \lVert              ‖           open
        \rVert              ‖           close
        \lfloor             ⌊           open
        \rfloor             ⌋           close
        \lceil              ⌈           open
        \rceil              ⌉           close
        \ulcorner           ⌜           open
        \urcorner           ⌝           close
        \llcorner           ⌞           open
        \lrcorner           ⌟           close
        \lgroup             ⟮           open
        \rgroup             ⟯           close
        \lmoustache         ⎰           open
        \rmoustache         ⎱           close
        \llbracket          ⟦           open
        \rrbracket          ⟧           close
        \lBrace             ⦃           open
        \rBrace             ⦄           close

        # ── Dots and punctuation ─────────────────────────────────────────────────────────────
        \ldots              …           inner
        \mathellipsis       …           inner
        \dots               …           inner
        \dotsc              …           inner
        \dotso              …           inner
        \dotsx              …           inner
        \cdots              ⋯           inner
        \dotsb              ⋯           inner
        \dotsm              ⋯           inner
        \dotsi              ⋯           inner
        \ddots              ⋱           inner
        \iddots             ⋰           inner
        \ldotp              .           punct
        \cdotp              ⋅           punct
        \colon              :           punct

        [char]
        # ASCII characters typed in math mode.
        +                   +           bin
        -                   U+2212      bin
        *                   U+2217      bin
        /                   /           ordop
        =                   =           rel
        <                   <           rel
        >                   >           rel
        :                   :           rel
        ,                   ,           punct
        ;                   ;           punct
        !                   !           close
        ?                   ?           close
        (                   (           open
        )                   )           close
        [                   [           open
        ]                   ]           close
        |                   |           ordop
        .                   .           ordop
        '                   U+2032      ordop
        `                   U+2018      ord
        @                   @           ord
        "                   "           ord

        [text]
        \ss                 ß
        \ae                 æ
        \AE                 Æ
        \oe                 œ
        \OE                 Œ
        \o                  ø
        \O                  Ø
        \aa                 å
        \AA                 Å
        \l                  ł
        \L                  Ł
        \i                  ı
        \j                  ȷ
        \#                  #
        \$                  $
        \%                  %
        \&                  &
        \_                  _
        \{                  {
        \}                  }
        \textbackslash      \
        \textasciitilde     ~
        \textasciicircum    ^
        \textdollar         $
        \textunderscore     _
        \textbraceleft      {
        \textbraceright     }
        \textless           <
        \textgreater        >
        \textbar            |
        \textbardbl         ‖
        \lbrack             [
        \rbrack             ]
        \textellipsis       …
        \ldots              …
        \dots               …
        \textendash         –
        \textemdash         —
        \textquoteleft      ‘
        \textquoteright     ’
        \textquotedblleft   “
        \textquotedblright  ”
        \lq                 ‘
        \rq                 ’
        \textbullet         •
        \textperiodcentered ·
        \textdegree         °
        \degree             °
        \pounds             £
        \textsterling       £
        \yen                ¥
        \textyen            ¥
        \maltese            ✠
        \checkmark          ✓
        \circledR           ®
        \textregistered     ®
        \copyright          ©
        \textcopyright      ©
        \dag                †
        \textdagger         †
        \ddag               ‡
        \textdaggerdbl      ‡
        \S                  §
        \textsection        §
        \P                  ¶
        \textparagraph      ¶

        [accent]
        \'                  U+0301      # acute
        \`                  U+0300      # grave
        \^                  U+0302      # circumflex
        \~                  U+0303      # tilde
        \"                  U+0308      # diaeresis
        \=                  U+0304      # macron
        \.                  U+0307      # dot above
        \u                  U+0306      # breve
        \v                  U+030C      # caron
        \H                  U+030B      # double acute
        \r                  U+030A      # ring above
        \c                  U+0327      # cedilla
        \k                  U+0328      # ogonek
        \d                  U+0323      # dot below
        \b                  U+0331      # macron below
        \t                  U+0361      # double inverted breve (tie)
        \textcircled        U+20DD      # enclosing circle

        [not]
        # relation          its precomposed negation
        =                   ≠
        <                   ≮
        >                   ≯
        ≤                   ≰
        ≥                   ≱
        ∈                   ∉
        ∋                   ∌
        ⊂                   ⊄
        ⊃                   ⊅
        ⊆                   ⊈
        ⊇                   ⊉
        ∼                   ≁
        ≃                   ≄
        ≅                   ≇
        ≈                   ≉
        ≡                   ≢
        ≍                   ≭
        ≲                   ≴
        ≳                   ≵
        ≶                   ≸
        ≷                   ≹
        ≺                   ⊀
        ≻                   ⊁
        ≼                   ⋠
        ≽                   ⋡
        ⊑                   ⋢
        ⊒                   ⋣
        ⊲                   ⋪
        ⊳                   ⋫
        ⊴                   ⋬
        ⊵                   ⋭
        ⊢                   ⊬
        ⊨                   ⊭
        ⊩                   ⊮
        ⊫                   ⊯
        ∣                   ∤
        |                   ∤
        ∥                   ∦
        ‖                   ∦
        ∃                   ∄
        ←                   ↚
        →                   ↛
        ↔                   ↮
        ⇐                   ⇍
        ⇒                   ⇏
        ⇔                   ⇎
        """##
}
