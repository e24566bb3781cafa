import Foundation
import MathAloud

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

/// Options several commands share.
extension CommandLineArguments {
    /// `--pref NAME=VALUE` (repeatable).
    func speechPreferences() throws(UsageError) -> [String: String] {
        var preferences: [String: String] = [:]
        for p in values("--pref") {
            guard let eq = p.firstIndex(of: "=") else { throw UsageError("--pref needs NAME=VALUE") }
            preferences[String(p[..<eq])] = String(p[p.index(after: eq)...])
        }
        return preferences
    }

    /// `--verbosity V`.
    func verbosity() throws(UsageError) -> Verbosity? {
        guard let v = value("--verbosity") else { return nil }
        guard let verbosity = Verbosity(name: v) else {
            throw UsageError("--verbosity must be \(Verbosity.allCases.map(\.rawValue).joined(separator: ", ")), not '\(v)'")
        }
        return verbosity
    }

    /// `--display` and `--macro NAME=BODY` (repeatable).
    func texParserOptions() throws(UsageError) -> TeXParserOptions {
        var texOptions = TeXParserOptions(displayMode: flag("--display"))
        for definition in values("--macro") {
            guard let eq = definition.firstIndex(of: "=") else { throw UsageError("--macro needs NAME=BODY") }
            texOptions.macros[String(definition[..<eq])] = String(definition[definition.index(after: eq)...])
        }
        return texOptions
    }
}

/// What the speech options ask for (`--locale --style --pref --verbosity --rules-dir`, and the TeX
/// options), read once per command.
struct SpeechSettings {
    let locale: LocaleTag
    let style: SpeechStyleName
    let verbosity: Verbosity?
    let preferences: [String: String]
    let rulesDirectory: URL?
    let texOptions: TeXParserOptions

    /// The speaker, or nil after printing why its rules could not be loaded (the command then exits
    /// with `.rules`). A preference the style cannot use is a usage error on the command line (a typo
    /// there should stop the command); batch lines are answered with a warning instead.
    func loadSpeaker() throws(UsageError) -> Speaker? {
        do {
            return try Speaker(locale: locale, style: style, verbosity: verbosity, preferences: preferences, strictPreferences: true,
                               rulesDirectory: rulesDirectory, texOptions: texOptions, cacheCapacity: 0)
        } catch {
            if case .invalidPreferences(let problems) = error { throw UsageError(problems.map(\.description).joined(separator: "\n")) }
            Output.error("mathaloud: \(error)\n")
            return nil
        }
    }

    /// Speakers for batch lines, defaulting to these settings.
    var speakerPool: SpeakerPool {
        SpeakerPool(locale: locale, style: style, verbosity: verbosity, preferences: preferences, rulesDirectory: rulesDirectory,
                    texOptions: texOptions)
    }
}

extension CommandLineArguments {
    /// The speech options and the TeX options (`--display`, `--macro`).
    func speechSettings() throws(UsageError) -> SpeechSettings {
        SpeechSettings(locale: LocaleTag(value("--locale") ?? "en"), style: SpeechStyleName(value("--style") ?? "clearspeak"),
                       verbosity: try verbosity(), preferences: try speechPreferences(),
                       rulesDirectory: value("--rules-dir").map { URL(fileURLWithPath: $0) }, texOptions: try texParserOptions())
    }
}
