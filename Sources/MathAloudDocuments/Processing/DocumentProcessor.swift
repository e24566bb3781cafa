import Foundation
import MathAloud

/// A formula of a document, read: its speech, label, numbers, MathML and image, and what went wrong.
public struct ProcessedFormula: Sendable {
    /// The segment it is.
    public let segment: DocumentSegment
    /// Display style (as written, or as ``DocumentOptions/displayMode`` forces).
    public let display: Bool
    /// The speech as plain text.
    public let speech: String
    /// The structured speech (words, pauses, source ranges), for SSML or a voice.
    public let speechDescription: SpeechDescription
    /// The label (nil with ``LabelMode/none``, or when the ``ErrorMode`` keeps the source).
    public let label: String?
    /// The equation numbers and tags it shows, in row order.
    public let numbers: [String]
    /// The TeX drawn (the source with references resolved and numbers written as `\tag`s); the
    /// MathML markup for MathML formulas.
    public let drawnSource: String
    /// MathML of the drawn formula (with a TeX annotation), when asked for; for a `<math>` element,
    /// nil (the element itself is the MathML).
    public let mathML: String?
    /// The image, when asked for and an image maker was given.
    public let image: FormulaImage?
    /// Parse and speech diagnostics, ranges in the file's bytes (an unknown command is a warning here,
    /// as speech reads it by name).
    public let diagnostics: [Diagnostic]
    /// Whether the parser found errors, an unknown command included (the ``ErrorMode`` then applies).
    public let hasErrors: Bool
    /// The message of the first error, for ``ErrorMode/showError``.
    public var errorMessage: String? {
        (diagnostics.first { $0.severity == .error } ?? (hasErrors ? diagnostics.first : nil))?.message
    }
    /// The formula's text as written in the document (delimiters included; JSON escapes decoded in a
    /// notebook).
    public let originalText: String
}

/// An `\eqref{key}` or `\ref{key}` in a document's text.
public struct ResolvedReference: Sendable, Hashable {
    /// The command in the file's bytes.
    public let range: SourceRange
    /// The label key.
    public let key: String
    /// Whether it was `\eqref` (shown in parentheses).
    public let parenthesised: Bool
    /// The number or tag it names; nil when no `\label` has the key.
    public let number: String?
    /// How it reads: "equation 3" (the locale's words), or the key when unresolved.
    public let spoken: String
    /// How it shows: "(3)" for `\eqref`, "3" for `\ref`, or the command as written when unresolved.
    public let shown: String
}

/// A document read: each formula with its speech, label and output, and the references resolved.
public struct ProcessedDocument: Sendable {
    /// The segmented document.
    public let document: SegmentedDocument
    /// The formulas, in order.
    public let formulas: [ProcessedFormula]
    /// The references in the text, in order.
    public let references: [ResolvedReference]
    /// Everything noticed: the segmenter's, each formula's, unresolved references; in file order.
    public let diagnostics: [Diagnostic]
}

/// What the processor has done (for the streaming acceptance test, and `--stats`).
public struct ProcessorStatistics: Sendable, Hashable {
    /// Formulas parsed and spoken (each formula of a stream once).
    public var formulasAnalysed = 0
    /// Formulas drawn by the image maker.
    public var imagesMade = 0
}

/// Reads the formulas of documents and streams (DESIGN.md §13): numbering, references, macros, labels,
/// error modes, MathML and images, through a bounded shared cache.
///
/// ```swift
/// let processor = try DocumentProcessor(speaker: Speaker())
/// let read = processor.process(text: "Area: $\\pi r^2$.", format: .markdown)
/// read.formulas[0].label   // "pi r squared"
/// ```
///
/// Immutable and `Sendable` (the cache and the counts are locked): share one between threads.
public final class DocumentProcessor: @unchecked Sendable {
    /// The options in force.
    public let options: DocumentOptions
    /// The speech engine.
    public let speaker: Speaker
    /// The image maker, when images are wanted.
    public let imageMaker: (any FormulaImageMaker)?
    /// The cache of read formulas and images.
    public let cache: FormulaCache
    let segmenter: DocumentSegmenter
    let words: DocumentWords
    private let template: LabelTemplate
    private let lock = NSLock()
    private var counts = ProcessorStatistics()
    /// Parsers by (display, definitions).
    private var parsers: [ParserKey: FormulaParser] = [:]
    private var definitionIDs: [String: Int] = [:]

    struct ParserKey: Hashable {
        let display: Bool
        let definitions: Int
    }

    /// Creates a processor.
    /// - Parameters:
    ///   - options: labels, errors, numbering, macros, limits, products.
    ///   - speaker: the speech engine (its locale words name equation numbers).
    ///   - imageMaker: draws formulas when ``DocumentOptions/products`` has ``FormulaProducts/image``.
    ///   - cache: the cache to use (share one between processors with the same options and speaker).
    public init(options: DocumentOptions = DocumentOptions(), speaker: Speaker, imageMaker: (any FormulaImageMaker)? = nil,
                cache: FormulaCache = FormulaCache()) {
        self.options = options
        self.speaker = speaker
        self.imageMaker = imageMaker
        self.cache = cache
        self.segmenter = DocumentSegmenter(options: options.segmenter)
        self.words = DocumentWords(speaker: speaker)
        self.template = LabelTemplate(options.labelTemplate)
    }

    /// The counts so far.
    public var statistics: ProcessorStatistics {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// Segments and reads a document.
    public func process(text: String, format: DocumentFormat) -> ProcessedDocument {
        process(segmenter.segment(text: text, as: format))
    }

    /// Segments and reads a file's bytes.
    public func process(bytes: [UInt8], format: DocumentFormat) -> ProcessedDocument {
        process(segmenter.segment(bytes: bytes, as: format))
    }

    /// Reads a segmented document: numbers and labels in a first pass over its formulas, then every
    /// formula (on all cores).
    public func process(_ document: SegmentedDocument) -> ProcessedDocument {
        var context = DocumentContext(processor: self, baseDefinitions: document.definitions)
        context.documentSource = document.source
        let plans = document.segments.filter(\.isFormula).map { context.plan($0) }
        let resolved = plans.map { context.resolveReferences(in: $0) }
        let formulas: [ProcessedFormula]
        if resolved.count > 8 {
            formulas = resolved.concurrentMap { self.read($0) }
        } else {
            formulas = resolved.map { read($0) }
        }
        var references: [ResolvedReference] = []
        var diagnostics = document.diagnostics
        if options.resolvesReferences {
            // Only where formulas are looked for: not in code, comments, tags or verbatim text.
            let unscanned = document.unscannedRanges
            var u = 0
            for segment in document.segments where segment.kind == .text {
                for r in context.references(in: document.source, segment: segment) {
                    while u < unscanned.count, unscanned[u].upperBound <= r.range.lowerBound { u += 1 }
                    if u < unscanned.count, unscanned[u].lowerBound < r.range.upperBound { continue }
                    references.append(r)
                }
            }
            for r in references where r.number == nil {
                // A label on a formula that numbering left without a number is there: say so.
                let message = context.numberer.labelsUnnumbered(r.key)
                    ? "\\label{\(r.key)} is on a formula that has no number (the numbering (\(options.numbering.scope.rawValue)) does not number it; a \\tag{…} gives it one)"
                    : "no \\label{\(r.key)} for this reference"
                diagnostics.append(.warning("document.unresolved-reference", message, at: r.range))
            }
        }
        for f in formulas { diagnostics += f.diagnostics }
        diagnostics = diagnostics.enumerated().sorted {
            let a = $0.element.range?.lowerBound ?? -1, b = $1.element.range?.lowerBound ?? -1
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
        return ProcessedDocument(document: document, formulas: formulas, references: references, diagnostics: diagnostics)
    }

    /// Reads formulas ahead of time so that later documents and streams find them in the cache (inline
    /// formulas, the processor's definitions).
    public func preload(_ formulas: [(source: String, display: Bool)]) {
        let plans = formulas.map { item in
            FormulaPlan(segment: nil, source: item.source, notation: .tex, display: item.display, definitions: "",
                        numbers: [], readSource: item.source, readMap: OffsetMap(shift: 0), drawnSource: item.source,
                        texAnnotation: nil, idPrefix: "p")
        }
        _ = plans.concurrentMap { self.reading(of: $0) }
    }

    // MARK: Reading one formula

    /// The parser for a display style and set of definitions (made once, kept).
    func parser(display: Bool, definitions: String) -> FormulaParser {
        lock.lock(); defer { lock.unlock() }
        let id: Int
        if let known = definitionIDs[definitions] {
            id = known
        } else {
            id = definitionIDs.count
            definitionIDs[definitions] = id
        }
        let key = ParserKey(display: display, definitions: id)
        if let p = parsers[key] { return p }
        var mathML = MathMLReader.Options()
        mathML.keepsFormulaLabel = options.readsAuthorLabels
        let p = FormulaParser(texOptions: options.texOptions(display: display, definitions: options.definitions + definitions),
                              mathMLOptions: mathML)
        parsers[key] = p
        return p
    }

    func definitionID(_ definitions: String) -> Int {
        lock.lock(); defer { lock.unlock() }
        if let known = definitionIDs[definitions] { return known }
        let id = definitionIDs.count
        definitionIDs[definitions] = id
        return id
    }

    private var errorColor: String? {
        if case .render(let color) = options.errors { return color }
        return nil
    }

    /// The speech, diagnostics and MathML of a planned formula (cached).
    func reading(of plan: FormulaPlan) -> FormulaResult {
        let key = FormulaCache.Key(source: plan.readSource + (plan.drawnSource == plan.readSource ? "" : "\u{0}" + plan.drawnSource),
                                   notation: plan.notation, display: plan.display,
                                   definitions: definitionID(plan.definitions), products: options.products.rawValue,
                                   errorColor: errorColor)
        if let cached = cache.value(for: key) { return cached }
        let parser = parser(display: plan.display, definitions: plan.definitions)
        let parsed = parser.parse(plan.readSource, notation: plan.notation)
        let spoken = speaker.speak(parsed: parsed)
        lock.lock(); counts.formulasAnalysed += 1; lock.unlock()
        var result = FormulaResult(speech: spoken.speech, speechText: spoken.text, diagnostics: spoken.diagnostics,
                                   hasErrors: parsed.hasErrors, mathML: nil, drawn: nil)
        if options.products.contains(.mathML) || options.products.contains(.image) {
            let drawn = plan.drawnSource == plan.readSource ? parsed : parser.parse(plan.drawnSource, notation: plan.notation)
            result.drawn = drawn
            if options.products.contains(.mathML), plan.notation == .tex {
                result.mathML = mathML(of: drawn, source: plan.readSource, display: plan.display)
            }
        }
        cache.store(result, for: key)
        return result
    }

    /// MathML for HTML: error parts in the error colour, equation numbers as a column of their own
    /// (MathML Core has no `mlabeledtr`).
    func mathML(of parsed: ParsedFormula, source: String, display: Bool) -> String {
        var writerOptions = MathMLWriter.Options()
        writerOptions.display = display
        writerOptions.includeAnnotation = source
        let root = MathMLForHTML(errorColor: errorColor, numbersOnLeft: options.numbering.side == .left).transform(parsed.root)
        return MathMLWriter(options: writerOptions).write(root)
    }

    /// Reads a planned formula completely.
    func read(_ plan: FormulaPlan) -> ProcessedFormula {
        let result = reading(of: plan)
        let segment = plan.segment!
        let formula = segment.formula!
        // Diagnostics: read-source offsets → source offsets → file bytes.
        let diagnostics = result.diagnostics.map { d -> Diagnostic in
            var moved = d
            moved.range = d.range.map { formula.fileRange(ofSourceRange: plan.readMap.map($0)) }
            moved.notes = d.notes.map { Diagnostic.Note($0.message, range: $0.range.map { formula.fileRange(ofSourceRange: plan.readMap.map($0)) }) }
            moved.fixIts = d.fixIts.map { Diagnostic.FixIt(range: formula.fileRange(ofSourceRange: plan.readMap.map($0.range)), replacement: $0.replacement) }
            return moved
        }
        let hasErrors = result.hasErrors
        var label: String? = nil
        if !(hasErrors && options.errors == .keepSource) {
            label = makeLabel(plan: plan, speech: result.speechText)
        }
        var image: FormulaImage? = nil
        if options.products.contains(.image), let maker = imageMaker, let drawn = result.drawn, !hasErrors || errorColor != nil {
            let request = FormulaImageRequest(display: plan.display, label: label ?? "", speech: result.speechText,
                                              errorColor: errorColor, numbersOnLeft: options.numbering.side == .left,
                                              idPrefix: plan.idPrefix)
            let key = FormulaCache.Key(source: "image\u{0}" + plan.drawnSource + "\u{0}" + request.label + "\u{0}" + request.idPrefix,
                                       notation: plan.notation, display: plan.display,
                                       definitions: definitionID(plan.definitions), products: options.numbering.side == .left ? 1 : 0,
                                       errorColor: errorColor)
            if let cached = cache.value(for: key), cached.image != nil {
                image = cached.image
            } else {
                image = maker.image(of: drawn, request: request)
                lock.lock(); counts.imagesMade += 1; lock.unlock()
                var entry = FormulaResult(speech: SpeechDescription(), speechText: "", diagnostics: [], hasErrors: false,
                                          mathML: nil, drawn: nil)
                entry.image = image
                cache.store(entry, for: key)
            }
        }
        return ProcessedFormula(segment: segment, display: plan.display, speech: result.speechText,
                                speechDescription: result.speech, label: label, numbers: plan.numbers,
                                drawnSource: plan.drawnSource, mathML: formula.notation == .tex ? result.mathML : nil,
                                image: image, diagnostics: diagnostics, hasErrors: hasErrors, originalText: plan.originalText)
    }

    /// How an equation number or tag reads: as written when it is plain letters and digits, else
    /// spoken as the text it is (`\tag{$*$}` → "asterisk").
    func spokenNumber(_ tag: String) -> String {
        if tag.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-" }) { return tag }
        let spoken = speaker.speak(tex: "\\text{\(tag)}").text
        return spoken.isEmpty ? tag : spoken
    }

    /// How an equation number or tag shows in text: `$…$` around math taken away.
    static func shownNumber(_ tag: String) -> String {
        tag.replacingOccurrences(of: "$", with: "")
    }

    /// The label of a formula by the label mode.
    func makeLabel(plan: FormulaPlan, speech: String) -> String? {
        // The TeX as a label: without the spaces inside its delimiters (`\( y \)` is labelled "y").
        let tex = plan.source.trimmingCharacters(in: .whitespacesAndNewlines)
        let annotation = plan.texAnnotation?.trimmingCharacters(in: .whitespacesAndNewlines)
        let spoken = speech.allSatisfy(\.isWhitespace) ? tex : speech
        var base = template.fill(speech: spoken, latex: plan.notation == .tex ? tex : (annotation ?? spoken))
        if !plan.numbers.isEmpty { base = words.numberedLabel(base, numbers: plan.numbers.map(spokenNumber)) }
        switch options.label {
        case .speech:
            return base
        case .tex:
            return plan.notation == .tex ? tex : (annotation ?? base)
        case .none:
            return nil
        case .custom(let make):
            return make(FormulaLabelRequest(source: plan.source, notation: plan.notation, display: plan.display, speech: speech,
                                            numbers: plan.numbers, defaultLabel: base))
        }
    }
}

/// A read formula as the cache keeps it.
struct FormulaResult: Sendable {
    var speech: SpeechDescription
    var speechText: String
    /// Diagnostics in read-source offsets.
    var diagnostics: [Diagnostic]
    var hasErrors: Bool
    var mathML: String?
    /// The parsed drawn formula (for images).
    var drawn: ParsedFormula?
    var image: FormulaImage?
}

/// One formula, planned: what will be read and drawn.
struct FormulaPlan: Sendable {
    var segment: DocumentSegment?
    /// The formula as written.
    var source: String
    var notation: FormulaNotation
    var display: Bool
    /// The definitions in force (those of earlier formulas, the document's).
    var definitions: String
    var numbers: [String]
    /// What is parsed and spoken: the source with references resolved.
    var readSource: String
    /// Read-source offsets → source offsets.
    var readMap: OffsetMap
    /// What is drawn: the read source with the numbers as tags.
    var drawnSource: String
    var texAnnotation: String?
    /// A prefix for SVG ids (unique in the document).
    var idPrefix: String
    /// The formula's text as written (delimiters included).
    var originalText = ""
}

/// The first pass over a document's formulas: display, definitions, numbers, labels.
struct DocumentContext {
    let processor: DocumentProcessor
    var numberer: EquationNumberer
    var definitions: String
    var count = 0
    /// The document (nil for a stream, whose formulas carry their text).
    var documentSource: DocumentSource?
    /// The numbering result of each planned formula (its drawn TeX before references are resolved).
    private var drawn: [String?] = []

    init(processor: DocumentProcessor, baseDefinitions: String) {
        self.processor = processor
        self.numberer = EquationNumberer(numbering: processor.options.numbering)
        self.definitions = baseDefinitions
    }

    static let definitionCommands = ["\\newcommand", "\\renewcommand", "\\providecommand", "\\def", "\\gdef", "\\edef",
                                     "\\xdef", "\\let", "\\DeclareMathOperator"]

    mutating func plan(_ segment: DocumentSegment) -> FormulaPlan {
        let formula = segment.formula!
        let display: Bool
        switch processor.options.displayMode {
        case .asWritten: display = formula.display
        case .display: display = true
        case .inline: display = false
        }
        count += 1
        var plan = FormulaPlan(segment: segment, source: formula.source, notation: formula.notation, display: display,
                               definitions: definitions, numbers: [], readSource: formula.source, readMap: OffsetMap(shift: 0),
                               drawnSource: formula.source, texAnnotation: formula.texAnnotation, idPrefix: "mathaloud-f\(count)")
        plan.originalText = originalText(of: segment)
        guard formula.notation == .tex else { return plan }
        let numbered = numberer.number(tex: formula.source, display: display)
        plan.numbers = numbered.numbers
        if let drawnTeX = numbered.drawnTeX { plan.drawnSource = drawnTeX }
        if processor.options.keepsDefinitions, Self.definitionCommands.contains(where: { formula.source.contains($0) }) {
            definitions += formula.source + "\n"
        }
        return plan
    }

    /// A formula's text as written: the delimiters around its source, or its element's bytes.
    func originalText(of segment: DocumentSegment) -> String {
        guard let formula = segment.formula else { return "" }
        if let source = documentSource { return source[segment.range] }
        switch formula.delimiter {
        case .dollar: return "$\(formula.source)$"
        case .doubleDollar: return "$$\(formula.source)$$"
        case .parenthesis: return "\\(\(formula.source)\\)"
        case .bracket: return "\\[\(formula.source)\\]"
        case .dollarBacktick: return "$`\(formula.source)`$"
        case .mathFence: return "```math\n\(formula.source)```"
        case .environment(let name):
            return name == "math" || name == "displaymath" ? "\\begin{\(name)}\(formula.source)\\end{\(name)}" : formula.source
        case .mathElement, .scriptElement: return formula.source
        }
    }

    /// The plan with `\eqref{key}`/`\ref{key}` replaced by the numbers (all labels are known now).
    func resolveReferences(in plan: FormulaPlan) -> FormulaPlan {
        guard plan.notation == .tex, processor.options.resolvesReferences, plan.source.contains("ref{") else { return plan }
        var p = plan
        let (read, map) = replacingReferences(in: plan.source)
        p.readSource = read
        p.readMap = map
        p.drawnSource = replacingReferences(in: plan.drawnSource).0
        return p
    }

    /// `\eqref{key}` → `\eqref{3}` for every resolved key.
    func replacingReferences(in tex: String) -> (String, OffsetMap) {
        let bytes = Array(tex.utf8)
        var out: [UInt8] = []
        var map = OffsetMap()
        map.add(derived: 0, original: 0)
        var position = 0
        for r in Self.referenceCommands(in: bytes, from: 0, to: bytes.count) {
            guard let number = numberer.reference(r.key) else { continue }
            out += bytes[position..<r.keyRange.lowerBound]
            map.add(derived: out.count, original: r.keyRange.lowerBound)
            out += Array(number.utf8)
            map.add(derived: out.count, original: r.keyRange.upperBound)
            position = r.keyRange.upperBound
        }
        out += bytes[position...]
        map.add(derived: out.count, original: bytes.count)
        return (String(decoding: out, as: UTF8.self), map)
    }

    struct ReferenceCommand {
        var range: SourceRange
        var keyRange: SourceRange
        var key: String
        var parenthesised: Bool
    }

    /// `\eqref{…}` and `\ref{…}` commands in `bytes[from..<to]`.
    static func referenceCommands(in bytes: [UInt8], from: Int, to: Int) -> [ReferenceCommand] {
        var found: [ReferenceCommand] = []
        var i = from
        while i < to {
            guard bytes[i] == 0x5C else { i += 1; continue }
            if i + 1 < to, bytes[i + 1] == 0x5C { i += 2; continue }
            var j = i + 1
            while j < to, HTMLTokenizer.isLetter(bytes[j]) { j += 1 }
            let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
            if name == "eqref" || name == "ref", j < to, bytes[j] == 0x7B,
               let end = LaTeXSegmenter.groupEnd(bytes, at: j), end <= to, end - j <= 200 {
                let key = String(decoding: bytes[(j + 1)..<(end - 1)], as: UTF8.self).trimmingSpaces
                found.append(ReferenceCommand(range: SourceRange(i, end), keyRange: SourceRange(j + 1, end - 1), key: key,
                                              parenthesised: name == "eqref"))
                i = end
                continue
            }
            i = max(j, i + 1)
        }
        return found
    }

    /// The references in a text segment.
    func references(in source: DocumentSource, segment: DocumentSegment) -> [ResolvedReference] {
        let lo = source.textOffset(ofFileOffset: segment.range.lowerBound)
        let hi = source.textOffset(ofFileOffset: segment.range.upperBound)
        guard hi > lo, source.utf8[lo..<hi].contains(0x5C) else { return [] }
        return Self.referenceCommands(in: source.utf8, from: lo, to: hi).map { r in
            let number = numberer.reference(r.key)
            let shown: String
            if let number {
                let n = DocumentProcessor.shownNumber(number)
                shown = r.parenthesised ? "(\(n))" : n
            } else {
                shown = String(decoding: source.utf8[r.range.lowerBound..<r.range.upperBound], as: UTF8.self)
            }
            return ResolvedReference(range: source.fileRange(ofTextRange: r.range), key: r.key, parenthesised: r.parenthesised,
                                     number: number,
                                     spoken: number.map { processor.words.reference([processor.spokenNumber($0)]) } ?? r.key,
                                     shown: shown)
        }
    }
}

/// The locale's document phrases.
struct DocumentWords: Sendable {
    let numberedLabel: String
    let numberedLabelPlural: String
    let reference: String
    let referencePlural: String
    let listAnd: String

    init(speaker: Speaker) {
        numberedLabel = speaker.localePhrase("document.numbered-label") ?? "{label} ({number})"
        numberedLabelPlural = speaker.localePhrase("document.numbered-label", variant: "plural") ?? numberedLabel
        reference = speaker.localePhrase("document.equation-reference") ?? "({number})"
        referencePlural = speaker.localePhrase("document.equation-reference", variant: "plural") ?? reference
        listAnd = speaker.localePhrase("document.list-and") ?? ","
    }

    /// "1", "1 and 2", "1, 2 and 3".
    func list(_ numbers: [String]) -> String {
        guard numbers.count > 1 else { return numbers.first ?? "" }
        return numbers.dropLast().joined(separator: ", ") + " " + listAnd + " " + numbers.last!
    }

    func numberedLabel(_ label: String, numbers: [String]) -> String {
        (numbers.count == 1 ? numberedLabel : numberedLabelPlural)
            .replacingOccurrences(of: "{label}", with: label)
            .replacingOccurrences(of: "{number}", with: list(numbers))
    }

    func reference(_ numbers: [String]) -> String {
        (numbers.count == 1 ? reference : referencePlural).replacingOccurrences(of: "{number}", with: list(numbers))
    }
}

/// The tree changes MathML for a web page needs: error parts coloured, and each row's equation
/// number moved out of `mlabeledtr` (which MathML Core and browsers do not draw) into a cell of its
/// own at the chosen side, other rows getting an empty one.
struct MathMLForHTML {
    let errorColor: String?
    let numbersOnLeft: Bool

    func transform(_ node: MathNode) -> MathNode {
        switch node.kind {
        case .error:
            guard let color = errorColor else { return node }
            return MathNode(.style(StyleProperties(color: color)), [node], range: node.range)
        case .table(var properties):
            let rows = node.children.map(transform)
            guard rows.contains(where: { if case .tableRow(true) = $0.kind { true } else { false } }) else {
                return MathNode(node.kind, rows, range: node.range, attributes: node.attributes)
            }
            let newRows = rows.map { row -> MathNode in
                var cells = Array(row.children)
                var label = MathNode(.tableCell, [], range: nil)
                if case .tableRow(true) = row.kind, !cells.isEmpty { label = cells.removeFirst() }
                let all = numbersOnLeft ? [label] + cells : cells + [label]
                return MathNode(.tableRow(labeled: false), all, range: row.range, attributes: row.attributes)
            }
            // The number's column aligns to its margin.
            let columns = newRows.map(\.children.count).max() ?? 1
            var alignments = properties.columnAlignments
            while alignments.count < columns - 1 { alignments.append(alignments.last ?? .center) }
            if numbersOnLeft { alignments.insert(.left, at: 0) } else { alignments = Array(alignments.prefix(columns - 1)) + [.right] }
            properties.columnAlignments = alignments
            properties.numbered = false
            return MathNode(.table(properties), newRows, range: node.range, attributes: node.attributes)
        default:
            if node.children.isEmpty { return node }
            return MathNode(node.kind, node.children.map(transform), range: node.range, attributes: node.attributes)
        }
    }
}
