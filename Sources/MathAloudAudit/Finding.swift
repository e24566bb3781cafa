import MathAloud

/// One problem a listener would meet, found by an ``AuditRule``: where it is, what is wrong, the
/// formula, what MathAloud reads for it, and the label that would fix it.
public struct Finding: Sendable, Hashable {
    /// The rule that fired.
    public var rule: AuditRule
    /// Its severity (the rule's default or the configuration's).
    public var severity: Diagnostic.Severity
    /// A sentence for people; for parse problems it carries the parser's diagnostic.
    public var message: String
    /// The file, relative to the directory audited (or as given on the command line).
    public var file: String
    /// For a file inside an archive (EPUB), the entry's path in the archive.
    public var entry: String?
    /// The bytes of the problem in the file (or entry).
    public var range: SourceRange
    /// Where the range starts (1-based line, column in Unicode scalars).
    public var start: SourceLocation
    /// Where the range ends.
    public var end: SourceLocation
    /// The source line the range starts on (clipped around the range when long), for caret excerpts.
    public var lineText: String
    /// The formula: its TeX or MathML, or an image's `src` when its TeX is unknown.
    public var formula: String
    /// The formula's kind.
    public var kind: FormulaSite.Kind?
    /// The diagnostic id behind a parse finding (`tex.missing-brace`), if any.
    public var diagnosticID: String?
    /// What MathAloud reads for the formula, when it can read it.
    public var speech: String?
    /// A suggested fix, for people.
    public var suggestion: String?
    /// The label `--fix` would write, if it can write one.
    public var fixLabel: String?

    /// Creates a finding.
    public init(rule: AuditRule, severity: Diagnostic.Severity, message: String, file: String, entry: String? = nil,
                range: SourceRange, start: SourceLocation, end: SourceLocation, lineText: String, formula: String,
                kind: FormulaSite.Kind? = nil, diagnosticID: String? = nil, speech: String? = nil,
                suggestion: String? = nil, fixLabel: String? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.file = file
        self.entry = entry
        self.range = range
        self.start = start
        self.end = end
        self.lineText = lineText
        self.formula = formula
        self.kind = kind
        self.diagnosticID = diagnosticID
        self.speech = speech
        self.suggestion = suggestion
        self.fixLabel = fixLabel
    }

    /// `file` or `file!/entry` for archive entries (as compilers name members of archives).
    public var displayPath: String { entry.map { "\(file)!/\($0)" } ?? file }
}

/// What the audit found in one document (a file, or a spine document of an EPUB counted with its file).
public struct DocumentSummary: Sendable, Hashable {
    /// The file, as in ``Finding/file``.
    public var file: String
    /// The format it was read as (`markdown`, `html`, `latex`, `notebook`, `epub`, `text`).
    public var format: String
    /// The bytes read (an EPUB counts its uncompressed spine documents).
    public var bytes: Int
    /// Formulas found.
    public var formulas: Int
    /// Formulas with no finding of warning or error severity.
    public var good: Int
    /// Findings by rule id.
    public var findingsByRule: [AuditRule: Int]
    /// Findings by severity.
    public var findingsBySeverity: [Diagnostic.Severity: Int]
    /// LaTeX: the file given to the audit whose `\input`/`\include` brought this one in (it is reported
    /// right after that file, in that file's shard); nil for a file of the set itself.
    public var includedBy: String? = nil

    /// Creates a summary.
    public init(file: String, format: String, bytes: Int = 0, formulas: Int = 0, good: Int = 0,
                findingsByRule: [AuditRule: Int] = [:], findingsBySeverity: [Diagnostic.Severity: Int] = [:]) {
        self.file = file
        self.format = format
        self.bytes = bytes
        self.formulas = formulas
        self.good = good
        self.findingsByRule = findingsByRule
        self.findingsBySeverity = findingsBySeverity
    }

    /// All findings.
    public var findings: Int { findingsByRule.values.reduce(0, +) }

    /// The accessibility score, 0…100: the share of formulas a listener can hear without a problem
    /// (``good`` / ``formulas``), less 100 for a file that could not be audited at all. `nil` when
    /// the document has no formulas and nothing failed.
    public var score: Double? {
        let failed = findingsByRule.keys.contains { $0.isDocumentFailure }
        if failed { return 0 }
        guard formulas > 0 else { return nil }
        return (Double(good) * 1000 / Double(formulas)).rounded() / 10
    }

    /// Counts a finding.
    mutating func count(_ finding: Finding) {
        findingsByRule[finding.rule, default: 0] += 1
        findingsBySeverity[finding.severity, default: 0] += 1
    }
}

/// The totals of a set of documents.
public struct AuditSummary: Sendable, Hashable {
    /// Documents audited.
    public var documents = 0
    /// Documents with at least one formula.
    public var documentsWithMath = 0
    /// Bytes read.
    public var bytes = 0
    /// Formulas found.
    public var formulas = 0
    /// Formulas without a problem.
    public var good = 0
    /// Findings by rule.
    public var findingsByRule: [AuditRule: Int] = [:]
    /// Findings by severity.
    public var findingsBySeverity: [Diagnostic.Severity: Int] = [:]
    /// Documents that could not be audited (unreadable or malformed).
    public var failedDocuments = 0

    /// An empty summary.
    public init() {}

    /// Adds a document's counts.
    public mutating func add(_ document: DocumentSummary) {
        documents += 1
        if document.formulas > 0 { documentsWithMath += 1 }
        bytes += document.bytes
        formulas += document.formulas
        good += document.good
        for (rule, n) in document.findingsByRule { findingsByRule[rule, default: 0] += n }
        for (severity, n) in document.findingsBySeverity { findingsBySeverity[severity, default: 0] += n }
        if document.findingsByRule.keys.contains(where: { $0.isDocumentFailure }) { failedDocuments += 1 }
    }

    /// All findings.
    public var findings: Int { findingsByRule.values.reduce(0, +) }

    /// The set's accessibility score, 0…100: good formulas over all formulas, with each document that
    /// could not be audited counted as one formula that is not good. `nil` for a set with neither.
    public var score: Double? {
        let total = formulas + failedDocuments
        guard total > 0 else { return nil }
        return (Double(good) * 1000 / Double(total)).rounded() / 10
    }
}
