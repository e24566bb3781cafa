/// A minimal command-line option reader: `--flag`, `--name value`, `--name=value`, positionals.
struct CommandLineArguments {
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    private(set) var unknown: [String] = []

    /// Reads `arguments`; `valued` lists the options that take a value, `known` the flags.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("-") || a == "-" {
                positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = a
            var value: String? = nil
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                name = String(a[..<eq])
                value = String(a[a.index(after: eq)...])
            }
            if valued.contains(name) {
                if value == nil {
                    guard i < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[i]
                    i += 1
                }
                options[name, default: []].append(value!)
            } else if known.contains(name) {
                flags.insert(name)
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
}

/// A mistake in how the command was called (exit code 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
