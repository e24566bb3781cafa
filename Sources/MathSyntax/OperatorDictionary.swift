/// Default properties of operator characters: what an `mo` element means when nothing else says.
///
/// Modelled on the MathML operator dictionary (the operator dictionary appendix of MathML Core) but keyed by
/// the TeX atom class (TeXbook ch. 17) instead of MathML's form and spacing: binary operators,
/// relations, fences, punctuation, large operators. Readers of typed Unicode and of MathML `mo`
/// ask this table what a character is; the TeX front end's own symbol table decides for commands.
///
/// The data is one text table, ``table``, parsed once into dictionaries on first use.
public enum OperatorDictionary {
    /// The default operator properties of an operator's text (`+`, `≤`, `∑`, `(`, `lim`, `:=`).
    ///
    /// Lookup order: the whole text (multi-character operators such as `:=` and `lim`); then, for a
    /// character followed only by negation overlays (U+0338, U+20D2, U+20E5) or variation selectors, the
    /// properties of that character (so `=\u{338}` is a relation like `≠`). Text the table does not
    /// know, such as a letter, gets ``OperatorProperties/ordinary``.
    public static func properties(for text: String) -> OperatorProperties {
        let tables = Tables.shared
        // One character, the common case: only the scalar table can know it (`strings` holds
        // operators of several characters), so skip hashing the string.
        var iterator = text.unicodeScalars.makeIterator()
        if let first = iterator.next(), iterator.next() == nil {
            return tables.scalars[first.value] ?? .ordinary
        }
        if let entry = tables.strings[text] { return entry }
        var scalars = text.unicodeScalars[...]
        while let last = scalars.last, scalars.count > 1, isOverlayOrSelector(last) {
            scalars = scalars.dropLast()
        }
        if scalars.count == 1, let entry = tables.scalars[scalars.first!.value] {
            return entry
        }
        return .ordinary
    }

    /// The atom class of a directly typed Unicode character, or nil when the character is not an
    /// operator but an identifier: a letter, a Greek letter, a digit, ∞, ∂, ∅, ℵ, ∇, ⊤….
    ///
    /// Large operators (`∑`, `∫`) answer ``AtomClass/op``; fences ``AtomClass/open`` and
    /// ``AtomClass/close``; `|` and `‖` ``AtomClass/ord`` (whether they open or close is the
    /// parser's decision).
    public static func atomClass(for scalar: Unicode.Scalar) -> AtomClass? {
        Tables.shared.scalars[scalar.value]?.atomClass
    }

    /// Lines of ``table`` that could not be read; empty when the table is sound. The tests require
    /// it to be empty.
    package static var tableProblems: [String] {
        Tables.shared.problems
    }

    /// Combining overlays that negate an operator, and variation selectors that only pick a glyph.
    private static func isOverlayOrSelector(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0338, 0x20D2, 0x20E5, 0xFE00...0xFE0F: return true
        default: return false
        }
    }

    /// The dictionary, one line per group of operators: `class[+flag…]  item…`.
    ///
    /// - class: `ord`, `op`, `bin`, `rel`, `open`, `close`, `punct`, `inner`, or `id` to take the
    ///   items out of the table again (identifiers inside a range of operators).
    /// - flags: `stretchy`, `fence`, `separator`, `large` (large operator), `limits` (movable limits).
    /// - item: a character written as itself, `U+XXXX`, a range `U+XXXX..U+YYYY`, or a word of
    ///   several characters (`lim`, `:=`). `#` starts a comment; the character `#` is `U+0023`.
    ///
    /// A later line overrides an earlier one, so each block is laid down as a range first and its
    /// exceptions follow.
    static let table = #"""
        # ── ASCII and Latin-1 ──────────────────────────────────────────────────────────────────
        bin                     + - *
        rel                     = < > :
        punct+separator         , ;
        close                   ! ?
        ord                     / . ' " ` \ % & U+0023 @
        ord+stretchy            ^ _ ~
        open+fence+stretchy     ( [ {
        close+fence+stretchy    ) ] }
        ord+fence+stretchy      |
        bin                     ± × ÷ ·
        ord                     ¬ ´ ¸ ¨
        ord+stretchy            ¯

        # ── Spacing modifier letters used as accents ───────────────────────────────────────────
        ord+stretchy            ˆ ˇ ˜ ˉ
        ord                     ˊ ˋ ˘ ˙ ˚ ˝

        # ── General Punctuation (U+2000–U+206F) ────────────────────────────────────────────────
        ord+fence+stretchy      ‖
        bin                     † ‡ •
        inner                   …
        ord                     ′ ″ ‴ ‵ ‶ ‷ ⁗ ⁄
        ord+stretchy            ‾
        close                   ‼
        open+fence+stretchy     ⁅
        close+fence+stretchy    ⁆
        # Invisible operators: function application, invisible times, separator, plus.
        ord                     U+2061
        bin                     U+2062 U+2064
        punct+separator         U+2063

        # ── Letterlike Symbols: only these two are operators ───────────────────────────────────
        op+large+limits         ⅀
        bin                     ⅋

        # ── Arrows (U+2190–U+21FF): relations that stretch, except the round and zigzag ones ───
        rel+stretchy            U+2190..U+21FF
        rel                     ↯ ↶ ↷ ↸ ↹ ↺ ↻ ⇞ ⇟ ⇱ ⇲

        # ── Mathematical Operators (U+2200–U+22FF): relations unless listed below ──────────────
        rel                     U+2200..U+22FF
        id                      ∂ ∅ ∆ ∇ ∎ ∞ ⊤
        ord                     ∀ ∁ ∃ ∄ √ ∛ ∜ ∟ ∠ ∡ ∢ ∿ ⊾ ⊿ ⋮
        op+large+limits         ∏ ∐ ∑ ⋀ ⋁ ⋂ ⋃
        op+large                ∫ ∬ ∭ ∮ ∯ ∰ ∱ ∲ ∳
        bin                     − ∓ ∔ ∕ ∖ ∗ ∘ ∙ ∧ ∨ ∩ ∪ ∸ ∺ ∾ ≀
        bin                     ⊌ ⊍ ⊎ ⊓ ⊔ ⊕ ⊖ ⊗ ⊘ ⊙ ⊚ ⊛ ⊜ ⊝ ⊞ ⊟ ⊠ ⊡
        bin                     ⊹ ⊺ ⊻ ⊼ ⊽ ⋄ ⋅ ⋆ ⋇ ⋉ ⋊ ⋋ ⋌ ⋎ ⋏ ⋒ ⋓
        inner                   ⋯ ⋰ ⋱

        # ── Supplemental Mathematical Operators (U+2A00–U+2AFF) ────────────────────────────────
        bin                     U+2A00..U+2A65
        op+large+limits         U+2A00..U+2A0A
        op+large                U+2A0B..U+2A1C
        rel                     U+2A66..U+2AFF
        op+large+limits         ⨝ ⨞ ⫼ ⫿
        bin                     ⩱ ⩲ ⫛ ⫵ ⫶ ⫽ ⫾
        ord                     ⫬ ⫭

        # ── Miscellaneous Technical (U+2300–U+23FF) ────────────────────────────────────────────
        open+fence+stretchy     ⌈ ⌊ U+2329 ⎰
        close+fence+stretchy    ⌉ ⌋ U+232A ⎱
        open+fence              ⌜ ⌞
        close+fence             ⌝ ⌟
        rel                     ⌢ ⌣
        bin                     ⌅ ⌆
        ord                     ⌐ ⌙
        ord+stretchy            ⎴ ⎵ ⏜ ⏝ ⏞ ⏟ ⏠ ⏡

        # ── Geometric Shapes and Box Drawing used as operators ─────────────────────────────────
        bin                     ◁ ▷ ◃ ▹ ◯
        ord                     ╱ ╲
        # The horizontal lines publishers draw for bonds (`HO─C═C─OH`): a single bond between its atoms as a
        # minus sign stands, a double bond as an equals sign does.
        bin                     ─
        rel                     ═

        # ── Miscellaneous Mathematical Symbols-A (U+27C0–U+27EF) ───────────────────────────────
        ord                     U+27C0..U+27EF
        rel                     ⟂ ⟃ ⟄ ⟈ ⟉ ⟊ ⟒ ⟓ ⟔ ⟚ ⟛ ⟜ ⟝ ⟞ ⟟
        bin                     ⟇ ⟎ ⟏ ⟑ ⟕ ⟖ ⟗ ⟠ ⟢ ⟣ ⟤ ⟥
        op+large+limits         ⟘ ⟙
        ord+stretchy            ⟌
        open+fence+stretchy     ⟅ ⟦ ⟨ ⟪ ⟬ ⟮
        close+fence+stretchy    ⟆ ⟧ ⟩ ⟫ ⟭ ⟯

        # ── Supplemental Arrows-A (U+27F0–U+27FF) ──────────────────────────────────────────────
        rel+stretchy            U+27F0..U+27FF
        rel                     ⟲ ⟳

        # ── Supplemental Arrows-B (U+2900–U+297F) ──────────────────────────────────────────────
        rel+stretchy            U+2900..U+297F
        rel                     U+2938..U+2941

        # ── Miscellaneous Mathematical Symbols-B (U+2980–U+29FF) ───────────────────────────────
        ord                     U+2980..U+29FF
        ord+fence+stretchy      ⦀
        ord+fence               ⦙
        open+fence+stretchy     ⦃ ⦅ ⦇ ⦉ ⦋ ⦍ ⦏ ⦑ ⦓ ⦕ ⦗ ⧘ ⧚ ⧼
        close+fence+stretchy    ⦄ ⦆ ⦈ ⦊ ⦌ ⦎ ⦐ ⦒ ⦔ ⦖ ⦘ ⧙ ⧛ ⧽
        id                      ⦰ ⦱ ⦲ ⦳ ⦴ ⧜ ⧝ ⧞                   # empty sets and infinities
        id                      ⧉ ⧊ ⧋ ⧌ ⧍ U+29E8..U+29F3          # shapes: triangles, lozenges, error bars
        rel                     ⦂ ⧀ ⧁ ⧎ ⧏ ⧐ ⧑ ⧒ ⧓ ⧔ ⧕ ⧟ ⧡ ⧣ ⧤ ⧥ ⧦ ⧴
        bin                     ⦵ ⦶ ⦷ ⦸ ⦹ ⦺ ⦻ ⦼ ⦾ ⦿ ⧄ ⧅ ⧆ ⧇ ⧈ ⧖ ⧗ ⧢ ⧵ ⧶ ⧷ ⧺ ⧻ ⧾ ⧿
        op+large+limits         ⧸ ⧹

        # ── Miscellaneous Symbols and Arrows: the arrows ───────────────────────────────────────
        rel                     U+2B00..U+2B11
        rel+stretchy            U+2B30..U+2B4C

        # ── CJK brackets, sometimes used as fences ─────────────────────────────────────────────
        open+fence+stretchy     〈
        close+fence+stretchy    〉
        open+fence              《 「 『 【 〔 〖 〘 〚
        close+fence             》 」 』 】 〕 〗 〙 〛

        # ── Operators of several characters ────────────────────────────────────────────────────
        op+limits               lim max min sup inf det gcd Pr liminf limsup argmax argmin injlim projlim plim
        rel                     := =: :: ::= <= >= != == -> <- => <=> <->
        close                   !!
        inner                   ...
        """#

    /// The parsed dictionary.
    struct Tables: Sendable {
        /// Single characters, by code point.
        var scalars: [UInt32: OperatorProperties] = [:]
        /// Operators written with several characters.
        var strings: [String: OperatorProperties] = [:]
        /// Lines or items that could not be read; empty when the table is sound.
        var problems: [String] = []

        /// Parsed once, on first use.
        static let shared = Tables(parsing: OperatorDictionary.table)

        /// Parses the table format documented on ``OperatorDictionary/table``. Lines it cannot read
        /// are skipped and listed in ``problems``.
        init(parsing text: String) {
            // Read on bytes (this runs at every start-up, for the symbol table's operators): splitting
            // the text into `Character`s and each field into a `String` cost 7.9 M instructions of a
            // `mathaloud parse 'x^2'` (BENCHMARKS.md, session 8). A field never contains a space or
            // tab, and no byte of a multi-byte UTF-8 sequence is one.
            var text = text
            scalars.reserveCapacity(2048)  // ~1,300 code points: no rehashing as they come
            text.withUTF8 { all in
                var fields: [Range<Int>] = []
                for (_, line) in ByteLines(all) {
                    fields.removeAll(keepingCapacity: true)
                    var i = line.lowerBound
                    while i < line.upperBound {
                        while i < line.upperBound, all[i] == 0x20 || all[i] == 0x09 { i += 1 }
                        let start = i
                        while i < line.upperBound, all[i] != 0x20, all[i] != 0x09 { i += 1 }
                        if start < i {
                            if all[start] == 0x23 { break }  // `#` starts a comment
                            fields.append(start..<i)
                        }
                    }
                    guard let head = fields.first else { continue }
                    func string(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: all[r]), as: UTF8.self) }
                    guard let properties = Self.properties(string(head)) else {
                        problems.append("bad class or flag: \(fields.map(string).joined(separator: " "))")
                        continue
                    }
                    for field in fields.dropFirst() {
                        if field.count >= 2, all[field.lowerBound] == 0x55, all[field.lowerBound + 1] == 0x2B {  // U+
                            let item = string(field)
                            guard let range = Self.codePoints(item) else {
                                problems.append("bad code point \(item)")
                                continue
                            }
                            for value in range { scalars[value] = properties }
                        } else if let scalar = Self.soleScalar(UnsafeBufferPointer(rebasing: all[field])) {
                            scalars[scalar.value] = properties
                        } else {
                            strings[string(field)] = properties
                        }
                    }
                }
            }
        }

        /// The only scalar of a field's UTF-8 bytes, nil when it has several (or is not valid UTF-8).
        private static func soleScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator),
                  case .emptyInput = decoder.decode(&iterator) else { return nil }
            return scalar
        }

        /// The properties named by a line's first field (`rel+stretchy`); `.some(nil)` for `id`,
        /// which takes the items out; nil when the field is malformed.
        private static func properties(_ head: String) -> OperatorProperties?? {
            let spec = head.split(separator: "+")
            if spec == ["id"] { return .some(nil) }
            guard let atomClass = AtomClass(rawValue: String(spec[0])) else { return nil }
            var properties = OperatorProperties(atomClass: atomClass)
            for flag in spec.dropFirst() {
                switch flag {
                case "stretchy": properties.stretchy = true
                case "fence": properties.fence = true
                case "separator": properties.separator = true
                case "large": properties.largeOperator = true
                case "limits": properties.movableLimits = true
                default: return nil
                }
            }
            return .some(properties)
        }

        /// The code points of an item written `U+XXXX` or `U+XXXX..U+YYYY`; nil when malformed.
        private static func codePoints(_ item: String) -> ClosedRange<UInt32>? {
            let bounds = item.split(separator: ".", omittingEmptySubsequences: true).map { part in
                part.hasPrefix("U+") ? UInt32(part.dropFirst(2), radix: 16) : nil
            }
            guard (1...2).contains(bounds.count), let low = bounds.first ?? nil, let high = bounds.last ?? nil,
                  low <= high else { return nil }
            return low...high
        }
    }
}
