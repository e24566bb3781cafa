import MathAloud
import MathAloudDocuments

/// A replacement of bytes in a document: the unit every `--fix` writer applies.
public struct TextEdit: Sendable, Hashable, Comparable {
    /// The bytes replaced (an empty range inserts).
    public var range: SourceRange
    /// The new bytes, already escaped for where they go.
    public var replacement: String

    /// Creates an edit.
    public init(range: SourceRange, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// Edits sort by position.
    public static func < (a: TextEdit, b: TextEdit) -> Bool {
        (a.range.lowerBound, a.range.upperBound) < (b.range.lowerBound, b.range.upperBound)
    }

    /// `bytes` with `edits` applied (sorted, non-overlapping; overlapping ones after the first are
    /// dropped), and the edits that were applied.
    public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> (bytes: [UInt8], applied: [TextEdit]) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.utf8.count })
        var cursor = 0
        var applied: [TextEdit] = []
        for edit in edits.sorted() where edit.range.lowerBound >= cursor && edit.range.upperBound <= bytes.count {
            out.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
            out.append(contentsOf: edit.replacement.utf8)
            cursor = edit.range.upperBound
            applied.append(edit)
        }
        out.append(contentsOf: bytes[cursor...])
        return (out, applied)
    }
}

/// Where the formulas being judged live: the file, the archive entry, and the text for locations.
public struct DocumentContext: Sendable {
    /// The file (relative to the audited directory).
    public var file: String
    /// The archive entry, for EPUB spine documents.
    public var entry: String?
    /// The document's text.
    public var text: SourceText
    /// Whether the document's `<math>` elements already use `aria-label` (then fixes write it too).
    public var usesAriaLabel: Bool
    /// Parses the document's TeX (inline, display) with its definitions and the configuration's.
    public var parsers: (inline: FormulaParser, display: FormulaParser)

    /// Creates a context; `parsers` come from ``FormulaJudge/parsers(definitions:)``.
    public init(file: String, entry: String? = nil, text: SourceText, usesAriaLabel: Bool = false,
                parsers: (inline: FormulaParser, display: FormulaParser)) {
        self.file = file
        self.entry = entry
        self.text = text
        self.usesAriaLabel = usesAriaLabel
        self.parsers = parsers
    }
}

/// The judgement on one formula.
public struct SiteVerdict: Sendable {
    /// The findings (rules turned off are not reported).
    public var findings: [Finding]
    /// Whether a listener can hear the formula without a problem (no warning or error).
    public var good: Bool
    /// The edits `--fix` would make.
    public var edits: [TextEdit]
    /// Whether the formula failed to parse (its label is then not rewritten).
    public var parseFailed: Bool
}

/// Judges formulas by the rules of ``AuditRule``: parses them as the speech engine does, speaks them,
/// and compares the labels they carry with what they are. Immutable and `Sendable`.
public struct FormulaJudge: Sendable {
    /// The speaker for speech and suggested labels.
    public let speaker: Speaker
    /// The configuration (severities, rules turned off, label template, placeholders, macros).
    public let configuration: AuditConfiguration

    private let sharedParsers: (inline: FormulaParser, display: FormulaParser)

    /// Creates a judge.
    public init(speaker: Speaker, configuration: AuditConfiguration) {
        self.speaker = speaker
        self.configuration = configuration
        sharedParsers = FormulaJudge.makeParsers(configuration: configuration, definitions: "")
    }

    static func makeParsers(configuration: AuditConfiguration, definitions: String) -> (inline: FormulaParser, display: FormulaParser) {
        func parser(_ display: Bool) -> FormulaParser {
            var options = TeXParserOptions(displayMode: display, macros: configuration.macros)
            options.definitions = configuration.definitions + definitions
            // The formula's own label is judged against what the formula says, so it is not read as it.
            var mathML = MathMLReader.Options()
            mathML.keepsFormulaLabel = false
            return FormulaParser(texOptions: options, mathMLOptions: mathML)
        }
        return (parser(false), parser(true))
    }

    /// Parsers for a document that makes `definitions` (a LaTeX preamble); the configuration's macro
    /// files apply to every document. The definitions are read once per document.
    public func parsers(definitions: String) -> (inline: FormulaParser, display: FormulaParser) {
        definitions.isEmpty ? sharedParsers : FormulaJudge.makeParsers(configuration: configuration, definitions: definitions)
    }

    /// Judges one formula.
    public func judge(_ site: FormulaSite, in context: DocumentContext) -> SiteVerdict {
        var findings: [Finding] = []
        var edits: [TextEdit] = []
        var parseFailed = false

        func location(_ range: SourceRange) -> (SourceLocation, SourceLocation, String) {
            let start = context.text.location(of: range.lowerBound)
            let end = context.text.location(of: range.upperBound)
            return (start, end, Self.clippedLine(context.text.lineText(start.line), column: start.column))
        }
        let formulaText = site.source ?? site.imageSource ?? context.text[site.range]
        func report(_ rule: AuditRule, _ message: String, at range: SourceRange, diagnosticID: String? = nil,
                    speech: String? = nil, suggestion: String? = nil, fixLabel: String? = nil) {
            guard let severity = configuration.severity(of: rule) else { return }
            let (start, end, line) = location(range)
            findings.append(Finding(rule: rule, severity: severity, message: message, file: context.file, entry: context.entry,
                                    range: range, start: start, end: end, lineText: line,
                                    formula: Self.clipped(formulaText, 2000), kind: site.kind, diagnosticID: diagnosticID,
                                    speech: speech, suggestion: suggestion, fixLabel: fixLabel))
        }

        // 1. Read the formula (its own source, or an image's TeX).
        var spoken: SpokenFormula? = nil
        var tree: MathNode? = nil
        if let source = site.source, source.utf8.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {
            let parser = site.display ? context.parsers.display : context.parsers.inline
            let parsed = parser.parse(source, notation: site.notation)
            let result = speaker.speak(parsed: parsed)
            spoken = result
            tree = parsed.root
            func documentRange(_ d: Diagnostic) -> SourceRange {
                guard let r = d.range, let formula = site.formula else { return site.range }
                let mapped = formula.fileRange(ofSourceRange: r)
                return mapped.lowerBound >= site.range.lowerBound && mapped.upperBound <= max(site.range.upperBound, mapped.lowerBound)
                    ? mapped : site.range
            }
            let errors = parsed.diagnostics.filter { $0.severity == .error }
            let unknown = errors.filter { $0.id == "tex.unknown-command" || $0.id == "mathml.unknown-element" }
            let other = errors.filter { $0.id != "tex.unknown-command" && $0.id != "mathml.unknown-element" }
            if let first = other.first {
                parseFailed = true
                let more = other.count > 1 ? " (and \(other.count - 1) more)" : ""
                report(.parseError, "\(first.message)\(more) (\(first.id))", at: documentRange(first), diagnosticID: first.id.rawValue,
                       speech: result.text, suggestion: Self.suggestion(for: first))
            }
            if let first = unknown.first {
                let names = unknown.map { context.text[documentRange($0)] }
                var seen = Set<String>()
                let distinct = names.filter { seen.insert($0).inserted }
                report(.unknownCommand, "\(first.message)\(distinct.count > 1 ? " (also \(distinct.dropFirst().prefix(5).joined(separator: ", ")))" : "") (\(first.id))",
                       at: documentRange(first), diagnosticID: first.id.rawValue, speech: result.text,
                       suggestion: "define it (a macro file in .mathaloud-audit.json, or \\newcommand in the document) or correct its spelling")
            }
            if let missing = result.speechDiagnostics.first(where: { $0.id == "speech.missing-word" }) {
                report(.readByName, missing.message, at: documentRange(missing), diagnosticID: missing.id.rawValue, speech: result.text,
                       suggestion: "write the symbol with a command MathAloud knows, or add a word for it to the locale")
            }
        }
        let speech = spoken.map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        let label = (spoken != nil && !parseFailed) ? speech.map { configuration.labelTemplate.fill(speech: $0, latex: site.source ?? "") } : nil

        // 2. Its text alternatives.
        switch site.kind {
        case .tex:
            break
        case .image:
            judgeImage(site, label: label, speech: speech, parseFailed: parseFailed, report: report, edits: &edits, tree: tree)
        case .mathML:
            judgeMath(site, context: context, label: label, speech: speech, report: report, edits: &edits, tree: tree)
        case .svg:
            let name = site.label("aria-label", "title", "aria-labelledby")
            let kind = name.map { LabelText.classify($0.value, imageSource: nil, formula: site.source, placeholders: configuration.placeholders) }
            if name == nil || kind == .empty || kind == .placeholder {
                report(.svgMissingLabel, name == nil ? "this formula image (<svg>) has no accessible name"
                                                     : "this formula image (<svg>) has the name \"\(name!.value)\", which says nothing of the math",
                       at: site.range, speech: speech, suggestion: label.map { "add role=\"img\" aria-label=\"\($0)\"" }, fixLabel: label)
                if let label, let insertion = site.attributeInsertionOffset, !site.attributeNames.contains("aria-label") {
                    var text = " aria-label=\"\(XMLEscaping.attribute(label))\""
                    if !site.attributeNames.contains("role") { text = " role=\"img\"" + text }
                    edits.append(TextEdit(range: SourceRange(insertion, insertion), replacement: text))
                }
            }
        }
        let good = !findings.contains { $0.severity >= .warning }
        if site.embedding != .plain { edits = edits.map { TextEdit(range: $0.range, replacement: site.embedding.escape($0.replacement)) } }
        return SiteVerdict(findings: findings, good: good, edits: edits, parseFailed: parseFailed)
    }

    /// `<img>` and Markdown images.
    private func judgeImage(_ site: FormulaSite, label: String?, speech: String?, parseFailed: Bool,
                            report: (AuditRule, String, SourceRange, String?, String?, String?, String?) -> Void,
                            edits: inout [TextEdit], tree: MathNode?) {
        func fire(_ rule: AuditRule, _ message: String, _ range: SourceRange, _ suggestion: String?, _ fix: String?) {
            report(rule, message, range, nil, speech, suggestion, fix)
        }
        guard let alt = site.label("alt", "markdown-alt") else {
            fire(.imageMissingAlt, "this image of a formula has no alt text", site.range,
                 label.map { "add alt=\"\($0)\"" } ?? "add an alt text that reads the formula in words", label)
            if let label, let insertion = site.attributeInsertionOffset {
                edits.append(TextEdit(range: SourceRange(insertion, insertion), replacement: " alt=\"\(XMLEscaping.attribute(label))\""))
            }
            return
        }
        let kind = LabelText.classify(alt.value, imageSource: site.imageSource, formula: site.source, placeholders: configuration.placeholders)
        let range = alt.valueRange.map { $0.count > 0 ? $0 : site.range } ?? site.range
        func rewrite(keepTeX tex: String?) {
            guard let label, let valueRange = alt.valueRange else { return }
            edits.append(TextEdit(range: valueRange, replacement: Self.escape(label, for: alt.syntax)))
            // The TeX stays with the image where the format has a place for it (HTML data-tex).
            if let tex, case .attribute = alt.syntax, let insertion = site.attributeInsertionOffset,
               !site.attributeNames.contains("data-tex"), !site.attributeNames.contains("data-latex") {
                edits.append(TextEdit(range: SourceRange(insertion, insertion), replacement: " data-tex=\"\(XMLEscaping.attribute(tex))\""))
            }
        }
        switch kind {
        case .empty:
            fire(.imageEmptyAlt, "this image of a formula has an empty alt text, so it is skipped as decoration", range,
                 label.map { "write alt=\"\($0)\"" } ?? "write an alt text that reads the formula in words", label)
            rewrite(keepTeX: nil)
        case .tex, .mathML:
            let what = kind == .tex ? "TeX" : "MathML"
            fire(.imageRawSourceAlt, "the alt text of this formula image is \(what) source, which a screen reader spells out", range,
                 label.map { "write alt=\"\($0)\"" + (kind == .tex ? " and keep the TeX in data-tex" : "") } ?? "write the formula in words", label)
            rewrite(keepTeX: kind == .tex ? alt.value : nil)
        case .placeholder:
            fire(.imagePlaceholderAlt, "the alt text \"\(Self.clipped(alt.value, 80))\" of this formula image says nothing of the math", range,
                 label.map { "write alt=\"\($0)\"" } ?? "write an alt text that reads the formula in words", label)
            rewrite(keepTeX: nil)
        case .words:
            if let tree, !parseFailed, let reason = agreementProblem(alt.value, speech: speech, tree: tree) {
                fire(.imageAltMismatch, "the alt text \"\(Self.clipped(alt.value, 80))\" disagrees with the image's formula: \(reason)", range,
                     label.map { "write alt=\"\($0)\"" }, label)
                rewrite(keepTeX: nil)
            }
        }
    }

    /// `<math>` elements.
    private func judgeMath(_ site: FormulaSite, context: DocumentContext, label: String?, speech: String?,
                           report: (AuditRule, String, SourceRange, String?, String?, String?, String?) -> Void,
                           edits: inout [TextEdit], tree: MathNode?) {
        let labels = site.labels.filter { $0.name == "alttext" || $0.name == "aria-label" }
        if labels.isEmpty {
            report(.mathMissingLabel, "this <math> element has no alttext or aria-label", site.range, nil, speech,
                   label.map { "add alttext=\"\($0)\"" }, label)
            if let label, let insertion = site.attributeInsertionOffset {
                var text = " alttext=\"\(XMLEscaping.attribute(label))\""
                if context.usesAriaLabel { text += " aria-label=\"\(XMLEscaping.attribute(label))\"" }
                edits.append(TextEdit(range: SourceRange(insertion, insertion), replacement: text))
            }
            return
        }
        var keptTeX = false
        for existing in labels {
            let kind = LabelText.classify(existing.value, imageSource: nil, formula: nil, placeholders: configuration.placeholders)
            let range = existing.valueRange.map { $0.count > 0 ? $0 : site.range } ?? site.range
            func rewrite(keepTeX tex: String?) {
                guard let label, let valueRange = existing.valueRange else { return }
                edits.append(TextEdit(range: valueRange, replacement: Self.escape(label, for: existing.syntax)))
                if let tex, !keptTeX, let insertion = site.attributeInsertionOffset,
                   !site.attributeNames.contains("data-tex"), !site.attributeNames.contains("data-latex") {
                    keptTeX = true
                    edits.append(TextEdit(range: SourceRange(insertion, insertion), replacement: " data-tex=\"\(XMLEscaping.attribute(tex))\""))
                }
            }
            switch kind {
            case .empty, .placeholder:
                report(.mathPlaceholderLabel, kind == .empty ? "the \(existing.name) of this <math> element is empty"
                                                             : "the \(existing.name) \"\(Self.clipped(existing.value, 80))\" says nothing of the math",
                       range, nil, speech, label.map { "write \(existing.name)=\"\($0)\"" }, label)
                rewrite(keepTeX: nil)
            case .tex, .mathML:
                report(.mathRawSourceLabel, "the \(existing.name) of this <math> element is \(kind == .tex ? "TeX" : "MathML") source, which a reader spells out",
                       range, nil, speech, label.map { "write \(existing.name)=\"\($0)\"" + (kind == .tex ? " and keep the TeX in data-tex" : "") }, label)
                rewrite(keepTeX: kind == .tex ? existing.value : nil)
            case .words:
                if let tree, let reason = agreementProblem(existing.value, speech: speech, tree: tree) {
                    report(.mathLabelMismatch, "the \(existing.name) \"\(Self.clipped(existing.value, 80))\" disagrees with the MathML: \(reason)",
                           range, nil, speech, label.map { "write \(existing.name)=\"\($0)\"" }, label)
                    rewrite(keepTeX: nil)
                }
            }
        }
    }

    /// Whether a label in words disagrees with the formula; our own speech always agrees.
    func agreementProblem(_ value: String, speech: String?, tree: MathNode) -> String? {
        func normalized(_ s: String) -> String {
            s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
        }
        if let speech, normalized(value) == normalized(speech) { return nil }
        if let speech, normalized(value) == normalized(configuration.labelTemplate.fill(speech: speech, latex: "")) { return nil }
        return LabelAgreement(tree: tree).disagreement(with: value)
    }

    /// A label escaped for where it is written.
    static func escape(_ label: String, for syntax: FormulaSite.LabelSyntax) -> String {
        switch syntax {
        case .attribute(let quote):
            let escaped = XMLEscaping.attribute(label)
            return quote == UInt8(ascii: "'") ? escaped.replacingOccurrences(of: "'", with: "&#39;")
                : quote == nil ? "\"\(escaped)\"" : escaped
        case .markdownAlt:
            var out = ""
            for c in label {
                if c == "[" || c == "]" || c == "\\" || c == "*" || c == "_" || c == "`" { out.append("\\") }
                out.append(c == "\n" ? " " : c)
            }
            return out
        case .elementText:
            return XMLEscaping.text(label)
        }
    }

    /// A parser diagnostic's fix-it as a sentence.
    static func suggestion(for diagnostic: Diagnostic) -> String? {
        if let fix = diagnostic.fixIts.first {
            return fix.replacement.isEmpty ? "remove the marked text" : "insert \"\(fix.replacement)\""
        }
        return diagnostic.notes.first?.message
    }

    /// At most `limit` characters, with an ellipsis.
    static func clipped(_ s: String, _ limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit)) + "…"
    }

    /// A source line clipped to 240 scalars around `column`.
    static func clippedLine(_ line: String, column: Int) -> String {
        let scalars = Array(line.unicodeScalars)
        guard scalars.count > 240 else { return line }
        let from = max(0, min(column - 60, scalars.count - 240))
        var out = String(String.UnicodeScalarView(scalars[from..<min(scalars.count, from + 240)]))
        if from > 0 { out = "…" + out }
        if from + 240 < scalars.count { out += "…" }
        return out
    }
}
