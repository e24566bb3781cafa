import Foundation
import MathSyntax

/// The modes a command is allowed in.
struct Modes: OptionSet, Sendable {
    let rawValue: UInt8
    static let math = Modes(rawValue: 1)
    static let text = Modes(rawValue: 2)
    static let both: Modes = [.math, .text]
}

/// How a command argument is read.
enum ArgumentKind: Sendable {
    /// A math group or a single symbol/command.
    case math
    /// An optional `[…]` math argument.
    case optionalMath
    /// A text-mode group (`\text{…}`), which may contain `$…$`.
    case text
    /// Text in text mode, math in math mode (`\underline`, `\sout`, `\phantom`).
    case content
    /// A group read as raw source (colours, dimensions, names).
    case raw
    /// An optional `[…]` read as raw source.
    case optionalRaw
}

/// A command argument as read.
enum Argument: Sendable {
    case node(MathNode)
    case raw(String, SourceRange)
    case absent

    var node: MathNode? { if case .node(let n) = self { return n } else { return nil } }
    var raw: String? { if case .raw(let s, _) = self { return s } else { return nil } }
    var range: SourceRange? {
        switch self {
        case .node(let n): return n.range
        case .raw(_, let r): return r
        case .absent: return nil
        }
    }
}

/// One use of a command: its name, the arguments read, and the range from the command to its last argument.
struct Invocation: Sendable {
    let name: String
    let token: Token
    var range: SourceRange
    var arguments = Arguments()

    init(name: String, token: Token, range: SourceRange) {
        self.name = name
        self.token = token
        self.range = range
    }

    /// The node of argument `i` (an empty row if absent or raw).
    func node(_ i: Int) -> MathNode {
        guard i < arguments.count, let n = arguments[i].node else { return MathNode(.row, [], range: nil) }
        return n
    }

    /// The arguments read, in order: the first two inline, any further ones in an array. Most commands
    /// take one or two (`\frac`, `\sqrt`, accents, fonts), and an array of them cost every command an
    /// allocation and its release (`MathAloudBench stages` under callgrind, session 36: 0.6 M
    /// instructions of 41.8 M in the parse loop).
    struct Arguments: Sendable {
        private var first: Argument = .absent
        private var second: Argument = .absent
        private var rest: [Argument] = []
        /// The number of arguments.
        private(set) var count = 0

        /// Argument `i` (below ``count``).
        subscript(i: Int) -> Argument {
            precondition(i >= 0 && i < count, "index out of range")
            switch i {
            case 0: return first
            case 1: return second
            default: return rest[i - 2]
            }
        }

        /// Adds `argument` after the others.
        mutating func append(_ argument: Argument) {
            switch count {
            case 0: first = argument
            case 1: second = argument
            default: rest.append(argument)
            }
            count += 1
        }
    }
}

/// One command: its names, arguments, modes and how it builds its node (DESIGN.md §3: one definition
/// per command; a command family lives in one file under `Commands/`).
///
/// A class, so that the parser takes a definition out of its table with one reference count
/// rather than a copy of every field.
final class CommandDefinition: Sendable {
    /// The names (without backslash) this definition answers to.
    let names: [String]
    /// The arguments read before `build` is called.
    let arguments: [ArgumentKind]
    /// Where the command may be used.
    let modes: Modes
    /// Scripts after the result go under/over (`\lim`, `\max`, `\overbrace`).
    let takesLimits: Bool
    /// Builds the node; may read further tokens through the parser. Nil produces nothing.
    let build: @Sendable (inout ParserCore, Invocation) -> MathNode?
    /// Scripts after `\overbrace`/`\overbracket` go over, after `\underbrace`/`\underbracket` under.
    let bracePosition: Atom.BracePosition

    init(_ names: [String], _ arguments: [ArgumentKind] = [], modes: Modes = .math, takesLimits: Bool = false,
         build: @escaping @Sendable (inout ParserCore, Invocation) -> MathNode?) {
        self.names = names
        self.arguments = arguments
        self.modes = modes
        self.takesLimits = takesLimits
        self.build = build
        if names.contains("underbrace") || names.contains("underbracket") {
            bracePosition = .under
        } else if names.contains("overbrace") || names.contains("overbracket") {
            bracePosition = .over
        } else {
            bracePosition = .none
        }
    }
}

/// All commands, gathered from the family files.
enum CommandRegistry {
    static let families: [[CommandDefinition]] = [
        FractionCommands.all, RootCommands.all, AccentCommands.all, ArrowCommands.all, FontCommands.all,
        TextCommands.all, DelimiterCommands.all, OperatorCommands.all, StyleCommands.all, SpacingCommands.all,
        EnclosureCommands.all, EnvironmentCommands.all, MiscCommands.all, ChemistryCommands.all, UnitCommands.all,
    ]

    /// Name → definition.
    static let table: [String: CommandDefinition] = {
        var table: [String: CommandDefinition] = [:]
        for family in families {
            for definition in family {
                for name in definition.names {
                    precondition(table[name] == nil, "command \\\(name) defined twice")
                    table[name] = definition
                }
            }
        }
        return table
    }()

    /// The closest known command name to an unknown one, for fix-its: within a typo's distance
    /// (``EditDistance/typoLimit(forLength:)``: one edit, two for long names; a transposition is one),
    /// so `\\frca` suggests `\\frac` but `\\foo` suggests nothing.
    static func suggestion(for name: String) -> String? {
        guard name.count >= 2, name.count <= 30 else { return nil }
        if let cached = suggestions.value(for: name) { return cached.value }
        var best: (String, Int)? = nil
        let target = Array(name.utf8)
        let limit = EditDistance.typoLimit(forLength: target.count)
        for (candidate, bytes) in knownCommandBytes where abs(bytes.count - target.count) <= limit {
            let d = EditDistance.between(target, bytes, limit: limit)
            if d <= limit, best == nil || d < best!.1 || (d == best!.1 && candidate < best!.0) { best = (candidate, d) }
        }
        suggestions.store(Suggestion(value: best?.0), for: name)
        return best?.0
    }

    /// The known command names with their bytes, made once (a suggestion compares against all of them).
    private static let knownCommandBytes: [(String, [UInt8])] = TeXParser.knownCommands.map { ($0, Array($0.utf8)) }

    /// A suggestion found before (documents repeat their unknown macros; the search costs ~0.1 ms).
    struct Suggestion { let value: String? }
    private static let suggestions = SuggestionCache()

    /// A small thread-safe memo of suggestions by name, emptied when full.
    final class SuggestionCache: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: Suggestion] = [:]
        func value(for name: String) -> Suggestion? { lock.lock(); defer { lock.unlock() }; return entries[name] }
        func store(_ value: Suggestion, for name: String) {
            lock.lock(); defer { lock.unlock() }
            if entries.count >= 4096 { entries.removeAll(keepingCapacity: true) }
            entries[name] = value
        }
    }
}
