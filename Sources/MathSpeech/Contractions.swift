import Foundation
import MathSyntax

/// Word changes where two parts of the speech meet, from a locale's `contractions.txt` (DESIGN.md §5:
/// grammar is data): English says "raised to the log" where a template's "the" meets a child's "the
/// log"; French elides "le intégrale" to "l'intégrale" and contracts "de le" to "du".
///
/// An entry's key is two words written with `\s` between them (`the\sthe`, `de\sle`); the second may
/// be `*`, any word, or `*V`, a word whose first letter is one of the locale's `elision-initials`
/// (`locale.txt`). The entry's words replace the pair; a `*` in them stands for the second word, so
/// `le\s*V  l'*` makes "l'intégrale". An exact pair comes before a pattern with the same first word,
/// so `de\sa  de a` keeps "de a" where `de\s*V` would elide. The first word may be `*C`, a word whose
/// last letter (after canonical decomposition, so the final consonant of a Hangul syllable) is one of
/// the locale's `final-letters`; `*` in the words then stands for that first word: Korean `*C\s는  * 은`
/// chooses the particle by the sound it follows ("분수끝 은", "x 는"). A key may name a third word (in the
/// second's part or the next): a word, or `*` and the letters it ends in; the entry's words then replace
/// the three, `*` standing for the third — German `von\sdie\s*en  von den *` ("von den reellen Zahlen": a word
/// in -en after "die" is a plural) before `von\sdie  von der` ("von der Menge"). The words may ask for a
/// form of the word `*` stands for, `*@NAME`, from the locale's `forms.txt`, where the longest key that
/// starts there wins; such an entry applies only where the word has the form: Russian `от\s*  от
/// *@genitive` says "от множества", "от минус бесконечности", and leaves "от x". Pairs change wherever
/// they meet, but never across a pause, except that a `*C` particle after a pause takes the form the
/// word before the pause asks for (the pause stays).
public struct Contractions: Sendable {
    struct Entry: Sendable {
        /// The second word, or nil for any word.
        let second: String?
        /// Whether the second word must start with an elision initial.
        let vowel: Bool
        /// The word that must follow the pair (a key of three words), if any.
        let next: Lookahead?
        let replacement: String
        /// The form the replacement asks for (`*@genitive`: the word `*` stands for in its genitive, from
        /// `forms.txt`), if any: the entry applies only where the word has it.
        let form: String?
        /// The second word's bytes when it is ASCII (for ``mayMatch(_:firstWordOf:)``).
        let secondASCII: [UInt8]?

        init(second: String?, vowel: Bool, next: Lookahead? = nil, replacement: String) {
            self.second = second
            self.vowel = vowel
            self.next = next
            self.replacement = replacement
            form = Contractions.formName(in: replacement)
            secondASCII = second.flatMap { s in s.utf8.allSatisfy { $0 < 0x80 } ? Array(s.utf8) : nil }
        }

        /// How specific the entry is, for the order in which a first word's entries are tried: an exact
        /// second word before a pattern, and, of each, one that names the word after before one that
        /// does not.
        var rank: Int { (second == nil ? 2 : 0) + (next == nil ? 1 : 0) }
    }

    /// The third word of a key: the word that must follow a pair for the entry to apply.
    enum Lookahead: Sendable, Equatable {
        /// This word.
        case word(String)
        /// Any word that ends in these letters (`*en`; `*` alone: any word).
        case ending(String)

        init(_ part: String) {
            self = part.hasPrefix("*") ? .ending(String(part.dropFirst())) : .word(part)
        }

        func holds(for word: Substring) -> Bool {
            switch self {
            case .word(let w): return word == w
            case .ending(let e): return !word.isEmpty && word.hasSuffix(e)
            }
        }
    }

    /// The form an entry's words ask for (`genitive` of `от *@genitive`), if any.
    static func formName(in words: String) -> String? {
        words.range(of: "*@").map { r in String(words[r.upperBound...].prefix { !$0.isWhitespace && $0 != "*" }) }
    }

    /// What is wrong with a key of `contractions.txt` (its words separated by spaces, as the word file
    /// reads `\s`), or nil: two words, or three; a pattern (`*`, `*V`) only as the second word of two,
    /// `*C` only as the first of two.
    public static func problem(withKey key: String) -> String? {
        let parts = key.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 || parts.count == 3 else {
            return "a contraction's key is two words, or three, written with \\s between them ('de\\sle', 'von\\sdie\\s*en'); '\(key)' has \(parts.count)"
        }
        if parts[0].hasPrefix("*") && parts[0] != "*C" {
            return "the first word of a contraction's key is a word or '*C' (a word ending in a final letter), not '\(parts[0])'"
        }
        if parts[0] == "*C" && (parts.count == 3 || parts[1].hasPrefix("*")) {
            return "a '*C' key names one second word and nothing after it ('*C\\s는')"
        }
        if parts.count == 3 && parts[1].hasPrefix("*") {
            return "in a contraction's key of three words the second is a word ('von\\sdie\\s*en'), not '\(parts[1])'"
        }
        if parts[1].hasPrefix("*") && parts[1] != "*" && parts[1] != "*V" {
            return "the second word of a contraction's key is a word, '*' (any word) or '*V' (a word starting with an elision initial), not '\(parts[1])'"
        }
        return nil
    }

    /// Entries by their first word.
    private let entries: [String: [Entry]]
    /// Letters that start a word a `*V` pattern matches (lower case).
    private let initials: Set<Character>
    /// The words of `*C` entries (a first word ending in a final letter), by their second word.
    private let afterFinal: [String: String]
    /// Letters (Unicode scalars, lower case, decomposed) that end a word a `*C` pattern matches.
    private let finals: Set<Unicode.Scalar>
    /// The forms of words (`forms.txt`: a word, or words, and its forms by name, such as its cases), for
    /// the replacements that ask for one (`*@genitive`).
    private let forms: [String: [String: String]]
    /// The most words a key of ``forms`` has.
    private let formWords: Int
    /// The byte tests of a text (its needles, the last bytes of the first words), which the speech
    /// builder also asks as it appends (``Screen``).
    let screen: Screen
    /// Whether a run of speech in which ``screen`` found no pair needs no ``apply(to:)`` (false when a
    /// `*C` entry is there: its first word is any word that ends in a final letter).
    let screens: Bool
    /// The first words as UTF-8, and their entries (parallel): the last word of an item is compared
    /// with these bytes instead of being made a `String` and hashed.
    private let firstWords: [[UInt8]]
    private let firstEntries: [[Entry]]
    /// The runs of bytes other than the space in `text`: at least as many as the words of
    /// `text.split(separator: " ")`.
    private static func spaceSeparatedRuns(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var runs = 0
            forEachWord(bytes, 0 ..< bytes.count) { _ in runs += 1 }
            return runs
        }
    }

    /// No contractions.
    public init() {
        entries = [:]
        initials = []
        afterFinal = [:]
        finals = []
        forms = [:]
        formWords = 0
        screen = Screen(needles: [], lastBytes: BitSet256(), secondFirstBytes: BitSet256())
        screens = false
        firstWords = []
        firstEntries = []
    }

    /// The contractions of a locale chain: a more specific locale's entry for a pair replaces its
    /// parent's; the first locale that sets `elision-initials` gives them.
    public init(chain: [LocaleWords]) {
        var byFirst: [String: [Entry]] = [:]
        var bySecond: [String: String] = [:]
        var seen: Set<String> = []
        for locale in chain {
            for (key, entry) in locale.contractions.entries where !seen.contains(key) {
                seen.insert(key)
                // A key `rules lint` reports (``problem(withKey:)``) changes nothing.
                guard Contractions.problem(withKey: key) == nil else { continue }
                let parts = key.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                if parts[0] == "*C" {
                    bySecond[parts[1]] = entry.words
                    continue
                }
                let second: String? = parts[1].hasPrefix("*") ? nil : parts[1]
                byFirst[parts[0], default: []].append(Entry(second: second, vowel: parts[1] == "*V",
                                                            next: parts.count == 3 ? Lookahead(parts[2]) : nil, replacement: entry.words))
            }
        }
        // An exact pair wins over a pattern with the same first word (`de\sa  de a` before `de\s*V  d'*`),
        // and a key that names the word after the pair over one that does not (`von\sdie\s*en` before
        // `von\sdie`); the sort is stable, so the files' order decides the rest.
        for (first, list) in byFirst {
            byFirst[first] = list.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
        }
        entries = byFirst
        afterFinal = bySecond
        // The forms: a more specific locale's entry for a word replaces its parent's.
        var forms: [String: [String: String]] = [:]
        for locale in chain {
            for (key, entry) in locale.forms.entries where forms[key] == nil { forms[key] = entry.variants }
        }
        self.forms = forms
        // Each key's words counted on its bytes first, an upper bound of the count of a split into
        // characters (a space with a combining mark after it is no character " "), which is made only
        // of a key that may have more words than the most so far: split whole, Russian's 181 keys
        // took 2.2 M instructions (`mathaloud speak --locale ru 'x^2'` under callgrind).
        var formWords = 0
        for key in forms.keys where Contractions.spaceSeparatedRuns(key) > formWords {
            formWords = max(formWords, key.split(separator: " ").count)
        }
        self.formWords = formWords
        var needles: [[UInt8]] = []
        for (first, list) in byFirst {
            for entry in list {
                let needle = Array(first.utf8) + [0x20] + (entry.second.map { Array($0.utf8) } ?? [])
                if !needles.contains(needle) { needles.append(needle) }
            }
        }
        // A `*C` entry's second word, after a space.
        for second in bySecond.keys { needles.append([0x20] + Array(second.utf8)) }
        let firsts = byFirst.keys.sorted()
        firstWords = firsts.map { Array($0.utf8) }
        firstEntries = firsts.map { byFirst[$0]! }
        var lastBytes = BitSet256()
        for b in byFirst.keys.compactMap({ $0.utf8.last }) { lastBytes.insert(Int(b)) }
        // The bytes a text whose first word is a second word may start with: an ASCII word's first
        // byte (a text canonically equal to it that starts with an ASCII byte starts with that one);
        // any byte ≥ 0x80 (a scalar that decomposes to the letter: U+212A KELVIN SIGN is "K"); a space
        // (``mayMatch(_:firstWordOf:)`` lets a space before a mark through). Any byte for a pattern or
        // a non-ASCII word.
        var secondFirstBytes = BitSet256()
        for b in 0x80 ..< 0x100 { secondFirstBytes.insert(b) }
        secondFirstBytes.insert(0x20)
        for entry in byFirst.values.joined() {
            if let first = entry.secondASCII?.first {
                secondFirstBytes.insert(Int(first))
            } else {
                for b in 0 ..< 0x80 { secondFirstBytes.insert(b) }
            }
        }
        screen = Screen(needles: needles, lastBytes: lastBytes, secondFirstBytes: secondFirstBytes)
        screens = !byFirst.isEmpty && bySecond.isEmpty
        let letters = chain.lazy.compactMap { $0.settings.words("elision-initials") }.first ?? ""
        initials = Set(letters.lowercased().filter { !$0.isWhitespace })
        let endings = chain.lazy.compactMap { $0.settings.words("final-letters") }.first ?? ""
        // ASCII letters (or none, most locales) are their own decomposition: Foundation's, asked of
        // the empty string, cost 0.7 M of the 88.6 M instructions of `mathaloud speak 'x^2'` under
        // callgrind (session 46).
        let lowered = endings.lowercased()
        let decomposed = lowered.utf8.allSatisfy { $0 < 0x80 } ? lowered : lowered.decomposedStringWithCanonicalMapping
        finals = Set(decomposed.unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    /// The entries whose first word is the last word of `text` (after its last space), if any.
    private func entriesForLastWord(of text: String) -> [Entry]? {
        func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            var start = bytes.count
            while start > 0, bytes[start - 1] != 0x20 { start -= 1 }
            let last = UnsafeBufferPointer(rebasing: bytes[start...])
            return firstWords.firstIndex { $0.elementsEqual(last) }
        }
        let k: Int? = text.withBytes { bytes in
            // A text ending in a byte no first word ends in has none last (a bit test).
            guard let last = bytes.last, screen.endsFirstWord(last) else { return nil }
            return find(bytes)
        }
        return k.map { firstEntries[$0] }
    }

    /// Whether an entry of `list` may match the first word of `text` (false only when none can): an
    /// entry with an ASCII second word is compared with the bytes of an ASCII first word, without
    /// splitting the text into `String`s (every pair of items whose first ends in a first word asks;
    /// English "the" ends many). Anything else (a pattern, a non-ASCII word, a space a mark may join)
    /// is left to ``matches(_:_:)``.
    private func mayMatch(_ list: [Entry], firstWordOf text: String) -> Bool {
        text.withBytes { bytes in
            var end = 0
            while end < bytes.count, bytes[end] != 0x20 {
                if bytes[end] >= 0x80 { return true }
                end += 1
            }
            // A mark after the space would make one character of them: the word would go on.
            if end + 1 < bytes.count, bytes[end + 1] >= 0x80 { return true }
            let word = UnsafeBufferPointer(rebasing: bytes[..<end])
            for entry in list {
                // ASCII against ASCII: equal strings exactly when equal bytes.
                guard let second = entry.secondASCII else { return true }
                if second.elementsEqual(word) { return true }
            }
            return false
        }
    }

    /// Whether there is nothing to change.
    public var isEmpty: Bool { entries.isEmpty && afterFinal.isEmpty }

    /// Whether a word ends in one of the `final-letters` (its last character decomposed: the final
    /// consonant of a Hangul syllable, a Latin letter in either case).
    private func endsInFinal(_ word: some StringProtocol) -> Bool {
        guard let last = word.last else { return false }
        let scalars = String(last).lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        return scalars.last.map { finals.contains($0) } ?? false
    }

    /// Applies the contractions to speech items in place. The speech engine calls it only when the
    /// builder's screen (``Screen``) found a pair the items may hold, or could not screen them.
    ///
    /// `isVariable` tells the words of an item that are a variable's own name (the letter `a` of `f(a)`,
    /// at its source range), which no pair of two words joins: Portuguese contracts the template's "de"
    /// with the article "a" ("da raiz"), never with a variable a ("f de a", not "f da"); Italian's "a la"
    /// never swallows a variable a. It is asked only of the items of a pair an entry matches. A pattern
    /// still applies before such a name when no exact pair names it first (French `de\s*V` elides
    /// "d'x"; its `de\sa  de a` keeps "de a"), and a `*C` entry still reads the sound the name ends in
    /// (Korean "x 는").
    public func apply(to items: inout [SpeechDescription.Item],
                      isVariable: (_ words: String, _ range: SourceRange) -> Bool = { _, _ in false }) {
        guard !isEmpty, !items.isEmpty else { return }
        // The flags on the stack: an array was a heap block per formula (rules stage, session 9).
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: items.count) { flags in
            let mayStartPair = flags.baseAddress!
            mayStartPair.initialize(repeating: !afterFinal.isEmpty, count: items.count)
            apply(to: &items, mayStartPair: mayStartPair, isVariable: isVariable)
        }
    }

    /// ``apply(to:isVariable:)`` with room for a flag per item.
    private func apply(to items: inout [SpeechDescription.Item], mayStartPair: UnsafeMutablePointer<Bool>,
                       isVariable: (String, SourceRange) -> Bool) {
        // Pairs inside one item (a part spoken as one piece of text); and which items end in a byte a
        // first word ends in: only those can start a pair across items (unless a `*C` entry, keyed
        // by the second word, is there). One look at each item, instead of copying both items of
        // every pair (rules stage, session 8). The items are read in place (a copy of an item counts
        // a reference to its words: most of this pass, rules stage, session 9); the few with a pair
        // inside are then changed from the first on.
        let firstContaining: Int? = items.withUnsafeBufferPointer { items in
            for k in items.indices {
                guard case .words(let w, _, _) = items[k] else { continue }
                let (contains, endsInFirst) = scan(w)
                if contains { return k }
                if endsInFirst { mayStartPair[k] = true }
            }
            return nil
        }
        for k in (firstContaining ?? items.count) ..< items.count {
            guard case let .words(w, r, p) = items[k] else { continue }
            let (contains, endsInFirst) = scan(w)
            if contains {
                let changed = applyWithin(w)
                if changed != w {
                    items[k] = .words(changed, range: r, prosody: p)
                    mayStartPair[k] = mayStartPair[k] || endsInFirstWordByte(changed)
                    continue
                }
            }
            mayStartPair[k] = mayStartPair[k] || endsInFirst
        }
        // Pairs across the boundary of two items.
        var i = 0
        while i + 1 < items.count {
            // A `*C` particle after a pause (`노름끝, 는 1`): its form follows the sound of the word before
            // the pause (`노름끝, 은 1`), and the pause stays (it may end a part: "x 아래첨자 i 더하기 1, 은").
            if !afterFinal.isEmpty, i + 2 < items.count, case .pause = items[i + 1] {
                afterFinalAcrossPause(&items, at: i)
            }
            guard mayStartPair[i], case let .words(a, ra, pa) = items[i], case let .words(b, rb, pb) = items[i + 1] else {
                i += 1
                continue
            }
            // A second word chosen by the sound the first ends in (`*C`).
            if !afterFinal.isEmpty {
                let (firstB, tailB) = Contractions.splitFirst(b)
                if let words = afterFinal[firstB] {
                    let (headA, lastA) = Contractions.splitLast(a)
                    if endsInFinal(lastA) {
                        Contractions.replacePair(in: &items, at: i, head: headA, replaced: words.replacingOccurrences(of: "*", with: lastA),
                                                 tail: tailB, ranges: (ra, rb), prosodies: (pa, pb), flags: mayStartPair)
                        i += 1  // the changed words are not looked at again (no entry can undo or repeat itself)
                        continue
                    }
                }
            }
            // The last word of `a` is looked up first, then the first word of `b` is compared on bytes,
            // without splitting either text (most pairs have none).
            guard let list = entriesForLastWord(of: a), mayMatch(list, firstWordOf: b) else {
                i += 1
                continue
            }
            let (headA, lastA) = Contractions.splitLast(a)
            // The second part's first words: the second word of a key, a third, the words of a form; when
            // the part has fewer than a key may read, the next part's first words follow (a form's words
            // said by two rules: "от" + "минус" + "бесконечность"), but not across a pause.
            let limit = formWords + 2
            var words = b.split(separator: " ", maxSplits: limit, omittingEmptySubsequences: false)
            let countB = words.count
            var c: (words: String, range: SourceRange?)? = nil
            if countB <= limit, i + 2 < items.count, case let .words(next, rc, _) = items[i + 2] {
                c = (next, rc)
                words += next.split(separator: " ", maxSplits: limit - countB, omittingEmptySubsequences: false)
            }
            // A variable's name is in no pair of two words: not as the first word, and after it only in
            // a pattern (`de\s*V`: French elides before "x" as before any word); an exact pair that names
            // it ("de a" → "da") leaves the two words as they are.
            if !lastA.isEmpty, !(ra.map { isVariable(a, $0) } ?? false),
               let (entry, replaced, used) = list.lazy.compactMap({ e in self.replacement(e, words: words).map { (e, $0.text, $0.used) } }).first,
               entry.second == nil || !(rb.map { isVariable(b, $0) } ?? false) {
                var second = b, secondRange = rb
                if used > countB, let c {
                    // The words run on into the next part, which joins the second.
                    second = b + " " + c.words
                    secondRange = SourceRange.union(rb, c.range)
                    items[i + 1] = .words(second, range: secondRange, prosody: pb)
                    Contractions.removeItem(in: &items, at: i + 2, flags: mayStartPair)
                }
                let rest = second.split(separator: " ", maxSplits: used, omittingEmptySubsequences: false)
                let tail = rest.count > used ? String(rest[used]) : ""
                Contractions.replacePair(in: &items, at: i, head: headA, replaced: replaced,
                                         tail: tail, ranges: (ra, secondRange), prosodies: (pa, pb), flags: mayStartPair)
                mayStartPair[i] = true
                continue  // the new last word may meet the next part
            }
            i += 1
        }
    }

    /// The `*C` entries across a pause: the particle that starts the item after the pause after item
    /// `i` takes the form after a final letter when item `i` ends in one (the entry's words without
    /// the `*` of the first word: `*C\s는  * 은` makes it 은). The items stay three.
    private func afterFinalAcrossPause(_ items: inout [SpeechDescription.Item], at i: Int) {
        guard case let .words(a, _, _) = items[i], case let .words(b, rb, pb) = items[i + 2] else { return }
        let (firstB, tailB) = Contractions.splitFirst(b)
        guard let words = afterFinal[firstB], words.hasPrefix("* "), endsInFinal(Contractions.splitLast(a).1) else { return }
        let particle = String(words.dropFirst(2))
        items[i + 2] = .words(tailB.isEmpty ? particle : particle + " " + tailB, range: rb, prosody: pb)
    }

    /// Whether a text may hold a pair (a first word of an entry followed by a space, found by a byte
    /// search: Foundation's `contains` cost a quarter of all speaking time, `MathAloudBench stages`)
    /// and whether its last byte is one a first word ends in, in one reading of its bytes.
    private func scan(_ text: String) -> (contains: Bool, endsInFirst: Bool) {
        text.withBytes { bytes in
            guard let last = bytes.last else { return (false, false) }
            let endsInFirst = screen.endsFirstWord(last)
            return (screen.holdsNeedle(bytes), endsInFirst)
        }
    }

    /// Whether the text's last byte is one a first word ends in.
    private func endsInFirstWordByte(_ text: String) -> Bool {
        text.withBytes { bytes in bytes.last.map { screen.endsFirstWord($0) } ?? false }
    }

    /// The contractions applied to the words of one text.
    private func applyWithin(_ text: String) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var k = 0
        // The changes made where the words at `k` start: a change may make a pair that changes again
        // ("de le" → "du"), but a word file's entries that undo each other (`a\sb  a c`, `a\sc  a b`) or
        // grow (`a\sb  a b b`) must not run forever: after a few, the words move on.
        var changesHere = 0
        while k + 1 < words.count {
            if changesHere < 4, let list = entries[words[k]],
               case let following = words[(k + 1)...].prefix(formWords + 2).map({ Substring($0) }),
               let (replaced, used) = list.lazy.compactMap({ self.replacement($0, words: following) }).first {
                let last = k + used
                // Words kept as they are (`de\sa  de a`) are passed over, not matched again.
                if replaced == words[k...last].joined(separator: " ") {
                    k += 1
                    changesHere = 0
                    continue
                }
                words.replaceSubrange(k...last, with: replaced.split(separator: " ").map(String.init))
                changesHere += 1
                continue
            }
            if let after = afterFinal[words[k + 1]], endsInFinal(words[k]) {
                let replaced = after.replacingOccurrences(of: "*", with: words[k]).split(separator: " ").map(String.init)
                words.replaceSubrange(k...(k + 1), with: replaced)
                k += max(1, replaced.count - 1)
                changesHere = 0
                continue
            }
            k += 1
            changesHere = 0
        }
        return words.joined(separator: " ")
    }

    /// The words that replace an entry's key where `words` follow its first word (the second word and
    /// those after it, in its part or the next), and how many of `words` they replace; nil where the
    /// entry does not apply: its second or third word is not there, or the form it asks for is not in
    /// `forms.txt`.
    /// `*` in the entry's words stands for its last word (the second, or the third of a key of three);
    /// `*@NAME` for that word in its form NAME, or for the words that start there when they are a key of
    /// `forms.txt` of several words ("квадратный корень" → "квадратного корня").
    private func replacement(_ entry: Entry, words: [Substring]) -> (text: String, used: Int)? {
        guard let second = words.first, matches(entry, String(second)) else { return nil }
        var used = 1
        if let next = entry.next {
            guard words.count > 1, next.holds(for: words[1]) else { return nil }
            used = 2
        }
        let star = String(words[used - 1])
        var text = entry.replacement
        if let form = entry.form {
            var found: String? = nil
            var n = min(formWords, words.count - (used - 1))
            while n >= 1, found == nil {
                if let f = forms[words[(used - 1) ..< (used - 1 + n)].joined(separator: " ")]?[form] {
                    found = f
                    used += n - 1
                }
                n -= 1
            }
            guard let found else { return nil }
            text = text.replacingOccurrences(of: "*@" + form, with: found)
        }
        return (text.replacingOccurrences(of: "*", with: star), used)
    }

    private func matches(_ entry: Entry, _ word: String) -> Bool {
        if let second = entry.second { return second == word }
        if entry.vowel { return word.first.map { initials.contains(Character($0.lowercased())) } ?? false }
        return !word.isEmpty
    }

    static func splitLast(_ s: String) -> (String, String) {
        guard let space = s.lastIndex(of: " ") else { return ("", s) }
        return (String(s[..<space]), String(s[s.index(after: space)...]))
    }

    /// Replaces the pair of items at `i` and `i + 1`: the first becomes its words before the pair
    /// (`head`) and the pair's replacement, over both ranges; the second keeps its words after the
    /// pair (`tail`), or goes when there are none.
    static func replacePair(in items: inout [SpeechDescription.Item], at i: Int, head: String, replaced: String, tail: String,
                            ranges: (SourceRange?, SourceRange?), prosodies: (SpeechDescription.Prosody?, SpeechDescription.Prosody?),
                            flags: UnsafeMutablePointer<Bool>) {
        items[i] = .words(head.isEmpty ? replaced : head + " " + replaced, range: SourceRange.union(ranges.0, ranges.1),
                          prosody: prosodies.0)
        if tail.isEmpty {
            removeItem(in: &items, at: i + 1, flags: flags)
        } else {
            items[i + 1] = .words(tail, range: ranges.1, prosody: prosodies.1)
        }
    }

    /// Removes the item at `i`; the flags after it move down with the items.
    static func removeItem(in items: inout [SpeechDescription.Item], at i: Int, flags: UnsafeMutablePointer<Bool>) {
        let count = items.count
        items.remove(at: i)
        var k = i
        while k + 1 < count { flags[k] = flags[k + 1]; k += 1 }
    }

    static func splitFirst(_ s: String) -> (String, String) {
        guard let space = s.firstIndex(of: " ") else { return (s, "") }
        return (String(s[..<space]), String(s[s.index(after: space)...]))
    }
}

extension Contractions {
    /// The byte tests that tell speech which no contraction can change, asked by the speech builder
    /// as it appends words (``SpeechBuilder/note(_:)``) so that ``apply(to:)`` is not run at all on
    /// most formulas: a pair inside one item holds a needle; a pair across two items needs the
    /// first to end in a byte a first word ends in and the second to start with a byte a second word
    /// may start with. ``apply(to:)`` read every spoken item of every formula for English's one entry
    /// (`the\sthe`): 2.5 % of whole speech (`MathAloudBench stages` under callgrind, session 15). A
    /// class: the builder reads it through one reference, not a copy of its tables per item.
    final class Screen: Sendable {
        /// The length of the shortest needle: a shorter text holds none (most spoken items are a word
        /// or two; session 10).
        let window: Int
        /// The needles are looked for as a set (Horspool's search): a window of ``window`` bytes is
        /// moved along a text by the shift of its last byte — the distance from that byte's last place
        /// among the needles' first bytes (before the window's end) to the window's end, the window's
        /// length for a byte in none — so most bytes of a text are never read; the needles are compared
        /// only where the window ends in a byte one of them has there (``windowEnds``). At most 255 (a
        /// shorter shift is still safe).
        let shifts: [UInt8]
        /// The bytes the needles have at the window's last place (index ``window`` − 1).
        let windowEnds: BitSet256
        /// The needles, what a text holding a pair must contain, as UTF-8 (the two words of an entry
        /// whose second word is given, `the the`, else its first word and a space; a `*C` entry's second
        /// word after a space: the narrower search spares most items a split into words, English "the "
        /// is in most of them), by their byte at the window's last place: where the window ends in a
        /// byte, only the needles with that byte there are compared (French has 135 needles; compared all at each
        /// place, the texts of its rules and words cost 3.1 M of the 133.5 M instructions of
        /// `speak 'x^2' --locale fr` under callgrind; session 44).
        let needlesByWindowEnd: [[[UInt8]]]
        /// Per byte at the window's last place, the second bytes of its needles (a window of two bytes
        /// or more): where the text's second byte there is none of them, no needle is compared. Russian's
        /// needles (`к `, `от `, `мощности `…) end their three-byte window in a Cyrillic lead byte, one
        /// of two, and start with one: compared at each place, the texts of its rules and words cost
        /// 5.4 M of the 110.5 M instructions of `mathaloud speak --locale ru 'x^2'` under callgrind
        /// (session 46).
        let secondBytesByWindowEnd: [BitSet256]
        /// Per byte, 1 when a first word ends in it (a text ending in another byte has no first word
        /// last) and 2 when a text whose first word is a second word may start with it: one load per
        /// test, asked per item by the builder and per pair of items by ``apply(to:)`` (two bit tests by
        /// selects cost a dozen instructions each).
        private let marks: [UInt8]

        init(needles: [[UInt8]], lastBytes: BitSet256, secondFirstBytes: BitSet256) {
            let window = needles.lazy.map(\.count).min() ?? 0
            self.window = window
            var shifts = [UInt8](repeating: UInt8(min(window, 255)), count: 256)
            var ends = BitSet256()
            var byEnd = [[[UInt8]]](repeating: [], count: window > 0 ? 256 : 0)
            var seconds = [BitSet256](repeating: BitSet256(), count: window > 1 ? 256 : 0)
            for needle in needles where window > 0 {
                for j in 0 ..< window - 1 { shifts[Int(needle[j])] = min(shifts[Int(needle[j])], UInt8(min(window - 1 - j, 255))) }
                ends.insert(Int(needle[window - 1]))
                byEnd[Int(needle[window - 1])].append(needle)
                if window > 1 { seconds[Int(needle[window - 1])].insert(Int(needle[1])) }
            }
            self.shifts = shifts
            windowEnds = ends
            needlesByWindowEnd = byEnd
            secondBytesByWindowEnd = seconds
            marks = (0 ..< 256).map { b in (lastBytes.contains(b) ? 1 : 0) | (secondFirstBytes.contains(b) ? 2 : 0) }
        }

        /// A text's marks, the answers of ``SpeechBuilder/note(_:)``'s tests made once for a text
        /// spoken again and again (a template's words, a character's cached words): it holds a needle
        /// (``holdsPair``), ends in a byte a first word ends in (``endsInFirstWord``), starts with a
        /// byte a second word may start with (``startsSecondWord``); ``unmarked`` when not made.
        static let holdsPair: UInt8 = 1, endsInFirstWord: UInt8 = 2, startsSecondWord: UInt8 = 4, unmarked: UInt8 = 0x80

        /// The marks of `text` (0 for the empty text, which the builder never appends).
        func marks(of text: String) -> UInt8 {
            text.withBytes { bytes in
                guard let first = bytes.first, let last = bytes.last else { return 0 }
                return (holdsNeedle(bytes) ? Screen.holdsPair : 0) | (endsFirstWord(last) ? Screen.endsInFirstWord : 0)
                    | (mayStartSecondWord(first) ? Screen.startsSecondWord : 0)
            }
        }

        /// Whether a first word ends in byte `b`.
        @inline(__always)
        func endsFirstWord(_ b: UInt8) -> Bool { marks[Int(b)] & 1 != 0 }

        /// Whether a text starting with byte `b` may start with a second word.
        @inline(__always)
        func mayStartSecondWord(_ b: UInt8) -> Bool { marks[Int(b)] & 2 != 0 }

        /// Whether the bytes hold one of the ``needles`` (found as a set by ``shifts``: a spoken item
        /// of a dozen bytes is read at two or three places, not at each byte).
        @inline(never)
        func holdsNeedle(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = bytes.count
            guard window > 0, count >= window else { return false }
            var i = 0
            while i <= count - window {
                let end = bytes[i + window - 1]
                if windowEnds.contains(Int(end)), window < 2 || secondBytesByWindowEnd[Int(end)].contains(Int(bytes[i + 1])) {
                    for needle in needlesByWindowEnd[Int(end)] where needle.count <= count - i {
                        var k = 0
                        while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
                        if k == needle.count { return true }
                    }
                }
                i += Int(shifts[Int(end)])
            }
            return false
        }
    }
}
