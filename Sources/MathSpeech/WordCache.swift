/// Words a speech run looks up again and again, found once when an engine is made, for one word
/// variant: the words of one-character texts (letters, digits, operators, Greek letters…), the
/// number words of small integers and the words templates name by key (`{@ms.subscript}`). Every entry is made by running the look-up it stands for, so
/// reading it instead says exactly the same words; what is not here is looked up as before.
final class WordCache: Sendable {
    /// The word variant the entries are for (`brief`, `superbrief`; nil for the default words).
    let variant: String?
    /// Per ASCII byte, ``SpeechRun/symbolWords(_:range:)`` of that one-byte text; nil when reading it
    /// reports a missing word (the run then looks it up and reports it).
    private let ascii: FrozenArray<String?>
    /// ``Lexicon/symbol(_:variant:)`` of one-scalar non-ASCII texts that have symbol words, by scalar.
    /// With each its words' marks (below): one probe of the map finds both, where two maps took two
    /// and kept a leaf's look-up out of line (0.54 M of 145.9 M instructions, `MathAloudBench stages`
    /// under callgrind, session 38).
    private let scalars: ScalarMap<(words: String, marks: UInt8)>
    /// The marks of the words of ``ascii`` and ``scalars`` for the speech builder's contraction screen
    /// (``Contractions/Screen/marks(of:)``; 0 when it does not screen): a leaf's words are noted
    /// without reading them (`MathAloudBench stages` under callgrind, session 15).
    private let asciiMarks: FrozenArray<UInt8>
    /// Per integer format (``integerFormats``), the words of `0 ..< integerCount` (``notCached`` for
    /// those that need spelling out: start-up never loads ICU).
    private let integers: FrozenArray<String?>
    /// Stands for words not made when the cache was: the run makes them.
    static let notCached = "\u{0}"
    /// Per key of a rule table's ``RuleTable/lookupKeys``, its symbol or number words, trimmed; nil
    /// when the key has neither (the run then reads it character by character, reporting what is
    /// missing).
    private let lookups: FrozenArray<String?>
    /// Per key of ``RuleTable/countedKeys``, its words for the counts `0 ..< countedCount`.
    private let counted: FrozenArray<String>
    /// How many counts of each counted key are here.
    static let countedCount = 8

    /// The formats that put words to an integer, in the order of ``integers``.
    static let integerFormats: [ValueFormat] = [.cardinal, .ordinal, .ordinalPlural, .denominator, .denominatorPlural,
                                                 .rootIndex, .ordinalNumeral, .power]
    /// How many integers (from 0) have their words here.
    static let integerCount = 32

    init(lexicon: Lexicon, variant: String?, lookupKeys: [String], countedKeys: [String] = [], screen: Contractions.Screen? = nil) {
        self.variant = variant
        let ascii = (0 ..< 128).map { byte in
            SpeechRun.symbolWords(String(UnicodeScalar(UInt8(byte))), lexicon: lexicon, variant: variant) { _, _ in nil }
        }
        self.ascii = FrozenArray(ascii)
        asciiMarks = FrozenArray(ascii.map { words in words.flatMap { screen?.marks(of: $0) } ?? 0 })
        var scalars: [UInt32: String] = [:]
        for key in lexicon.singleScalarSymbolKeys() {
            let scalar = key.unicodeScalars.first!.value
            if scalars[scalar] == nil, let words = lexicon.symbol(key, variant: variant) { scalars[scalar] = words }
        }
        self.scalars = ScalarMap(scalars.mapValues { (words: $0, marks: screen?.marks(of: $0) ?? 0) })
        integers = FrozenArray(WordCache.integerFormats.flatMap { format in
            (0 ..< WordCache.integerCount).map { n -> String? in
                var needsSpellOut = false
                let words = SpeechRun.integerWords(n, format, variants: format.impliedVariant.map { [$0] } ?? [], lexicon: lexicon,
                                                   spellOut: false, needsSpellOut: &needsSpellOut)
                return needsSpellOut ? WordCache.notCached : words
            }
        })
        lookups = FrozenArray(lookupKeys.map { key in
            (lexicon.symbol(key, variant: variant) ?? lexicon.number(key, variant: variant))?.trimmingSpaces
        })
        counted = FrozenArray(countedKeys.flatMap { key in
            (0 ..< WordCache.countedCount).map { SpeechEngine.Core.countedWords(key, $0, lexicon: lexicon, variant: variant) }
        })
        readerStorage = FrozenArray([Reader(ascii: self.ascii.base, scalars: self.scalars.reader, integers: integers.base,
                                            lookups: lookups.base, counted: counted.base, asciiMarks: asciiMarks.base)])
        reader = readerStorage.base
    }

    /// The cache as a run reads it (valid while the cache lives), made once: made per run from the
    /// tables' storage, it read seven objects, 6 data cache misses a speak (`MathAloudBench stages`
    /// under callgrind, session 37). A run holds a pointer to it: a run holding the reader itself
    /// (100 bytes) copied it for every leaf whose words it read (0.29 M of 146.2 M instructions,
    /// `MathAloudBench stages` under callgrind, session 38). Memory never written after `init`.
    nonisolated(unsafe) let reader: UnsafePointer<Reader>
    private let readerStorage: FrozenArray<Reader>

    /// Reads a ``WordCache`` through raw pointers (into memory never written after it is made: hence
    /// `@unchecked Sendable`).
    struct Reader: @unchecked Sendable {
        fileprivate let ascii: UnsafePointer<String?>
        fileprivate let scalars: ScalarMap<(words: String, marks: UInt8)>.Reader
        fileprivate let integers: UnsafePointer<String?>
        fileprivate let lookups: UnsafePointer<String?>
        fileprivate let counted: UnsafePointer<String>
        fileprivate let asciiMarks: UnsafePointer<UInt8>

        /// The words of counted key number `k` for count `n`, when they are here.
        @inline(__always)
        func countedWords(_ k: Int, _ n: Int) -> String? {
            n >= 0 && n < WordCache.countedCount ? counted[k * WordCache.countedCount + n] : nil
        }

        /// The words of lookup key number `k` (see ``WordCache/lookups``).
        @inline(__always)
        func lookupWords(_ k: Int) -> String? { lookups[k] }

        /// The symbol words of `text` when they are here (nil: look them up).
        @inline(__always)
        func symbolWords(_ text: String) -> String? { text.withBytes { markedSymbolWords(bytes: $0)?.0 } }

        /// The symbol words of the text with these UTF-8 bytes, with their marks (``WordCache/asciiMarks``).
        @inline(__always)
        func markedSymbolWords(bytes: UnsafeBufferPointer<UInt8>) -> (String, UInt8)? {
            guard let first = bytes.first else { return nil }
            if first < 0x80 {
                guard bytes.count == 1, let words = ascii[Int(first)] else { return nil }
                return (words, asciiMarks[Int(first)])
            }
            guard let scalar = Normalization.singleNonASCIIScalar(bytes), let found = scalars[scalar] else { return nil }
            return found
        }

        /// The words of integer `n` in `format`, when they are here: `.some(nil)` when the format
        /// gives none, nil when `n` is not one of the integers here.
        @inline(__always)
        func integerWords(_ n: Int, _ format: ValueFormat) -> String?? {
            guard n >= 0, n < WordCache.integerCount, let f = format.integerFormatIndex else { return nil }
            let words = integers[f * WordCache.integerCount + n]
            if let words, words.utf8.count == 1, words == WordCache.notCached { return nil }
            return .some(words)
        }
    }
}

extension ValueFormat {
    /// The format's place in ``WordCache/integerFormats`` (nil for formats that are not about integers).
    var integerFormatIndex: Int? {
        switch self {
        case .cardinal: 0
        case .ordinal: 1
        case .ordinalPlural: 2
        case .denominator: 3
        case .denominatorPlural: 4
        case .rootIndex: 5
        case .ordinalNumeral: 6
        case .power: 7
        default: nil
        }
    }
}

/// A map from Unicode scalar values to values: open addressing with a multiplicative hash, so a
/// look-up is a few integer operations (hashing a one-scalar `String` costs a Unicode normalization
/// check and SipHash). Read through raw pointers into memory the map owns and never writes after
/// `init` (hence `@unchecked Sendable`).
struct ScalarMap<Value: Sendable>: @unchecked Sendable {
    /// Keys by slot (`UInt32.max` for an empty slot) and their values.
    private let storage: (keys: FrozenArray<UInt32>, values: FrozenArray<Value?>)
    private let keys: UnsafePointer<UInt32>
    private let values: UnsafePointer<Value?>
    private let mask: Int
    /// `32 - log2(slot count)`: the hash is the top bits of the product.
    private let shift: UInt32

    init(_ dictionary: [UInt32: Value]) {
        var bits: UInt32 = 1
        while (1 << bits) < 2 * max(dictionary.count, 1) { bits += 1 }
        var keys = [UInt32](repeating: .max, count: 1 << bits)
        var values = [Value?](repeating: nil, count: 1 << bits)
        mask = keys.count - 1
        shift = 32 - bits
        for (key, value) in dictionary {
            var slot = ScalarMap.slot(key, shift, mask)
            while keys[slot] != .max { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }
        storage = (FrozenArray(keys), FrozenArray(values))
        self.keys = storage.keys.base
        self.values = storage.values.base
    }

    @inline(__always)
    fileprivate static func slot(_ key: UInt32, _ shift: UInt32, _ mask: Int) -> Int {
        Int((key &* 0x9E37_79B1) >> shift) & mask
    }

    /// The map as a run reads it (valid while the map lives).
    var reader: Reader { Reader(keys: keys, values: values, mask: mask, shift: shift) }

    /// Reads a ``ScalarMap`` through raw pointers (into memory never written after it is made).
    struct Reader: @unchecked Sendable {
        fileprivate let keys: UnsafePointer<UInt32>
        fileprivate let values: UnsafePointer<Value?>
        fileprivate let mask: Int
        fileprivate let shift: UInt32

        @inline(__always)
        subscript(_ key: UInt32) -> Value? {
            var slot = ScalarMap.slot(key, shift, mask)
            while true {
                let k = keys[slot]
                if k == key { return values[slot] }
                if k == .max { return nil }
                slot = (slot + 1) & mask
            }
        }
    }
}
