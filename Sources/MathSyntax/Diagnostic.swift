/// A problem found in an input, as a value: what, how bad, and where.
///
/// Diagnostics never stop a parse: the stage that reports one recovers and goes on. Rendering them
/// (caret underline for a terminal, JSON for machines) is done by ``DiagnosticRenderer``.
public struct Diagnostic: Hashable, Sendable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Codable, Comparable {
        case note, warning, error

        private var rank: Int {
            switch self { case .note: 0; case .warning: 1; case .error: 2 }
        }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// A secondary message attached to a diagnostic, optionally pointing elsewhere.
    public struct Note: Hashable, Sendable {
        /// The note's text.
        public var message: String
        /// Where it points, if anywhere.
        public var range: SourceRange?
        /// Creates a note.
        public init(_ message: String, range: SourceRange? = nil) {
            self.message = message
            self.range = range
        }
    }

    /// A suggested edit: replace `range` with `replacement`.
    public struct FixIt: Hashable, Sendable {
        /// The bytes to replace (empty range = insertion).
        public var range: SourceRange
        /// The text to put there.
        public var replacement: String
        /// Creates a fix-it.
        public init(range: SourceRange, replacement: String) {
            self.range = range
            self.replacement = replacement
        }
    }

    /// A stable identifier such as `tex.unknown-command` (listed in ``DiagnosticID/catalog``); tools and
    /// tests match on it.
    public var id: DiagnosticID
    /// How serious it is.
    public var severity: Severity
    /// A sentence for people.
    public var message: String
    /// Where in the input it applies.
    public var range: SourceRange?
    /// Further information.
    public var notes: [Note]
    /// Suggested edits.
    public var fixIts: [FixIt]

    /// Creates a diagnostic.
    public init(id: DiagnosticID, severity: Severity, message: String, range: SourceRange?,
                notes: [Note] = [], fixIts: [FixIt] = []) {
        self.id = id
        self.severity = severity
        self.message = message
        self.range = range
        self.notes = notes
        self.fixIts = fixIts
    }

    /// An error diagnostic.
    public static func error(_ id: DiagnosticID, _ message: String, at range: SourceRange?,
                             notes: [Note] = [], fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(id: id, severity: .error, message: message, range: range, notes: notes, fixIts: fixIts)
    }

    /// A warning diagnostic.
    public static func warning(_ id: DiagnosticID, _ message: String, at range: SourceRange?,
                               notes: [Note] = [], fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(id: id, severity: .warning, message: message, range: range, notes: notes, fixIts: fixIts)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsError: Bool { contains { $0.severity == .error } }
}
