/// Shell completion scripts for bash, zsh and fish, made from the commands' option declarations
/// (``CommandSpec``), so they always offer exactly the options and values the commands take.
/// Install: `mathaloud completion bash > /etc/bash_completion.d/mathaloud`,
/// `mathaloud completion zsh > "${fpath[1]}/_mathaloud"`,
/// `mathaloud completion fish > ~/.config/fish/completions/mathaloud.fish`.
enum CompletionScript {
    enum Shell: String, CaseIterable { case bash, zsh, fish }

    static func script(for shell: Shell, commands: [CommandSpec]) -> String {
        switch shell {
        case .bash: bash(commands)
        case .zsh: zsh(commands)
        case .fish: fish(commands)
        }
    }

    /// A short description: the help text up to its first `;` or `(`, at most 60 characters, with only
    /// characters no shell quoting needs to care about.
    static func short(_ help: String) -> String {
        var text = String(help.prefix { $0 != ";" && $0 != "(" && $0 != "\n" }).trimmingCharacters(in: .whitespaces)
        if text.count > 60 { text = String(text.prefix(59)) + "…" }
        return String(text.unicodeScalars.filter { !"'\"\\[]:`$".unicodeScalars.contains($0) }.map(Character.init))
    }

    static func commandSummary(_ spec: CommandSpec) -> String { short(spec.summary.components(separatedBy: "\n")[0]) }

    static let extraCommands = ["completion", "help"]

    // MARK: bash

    static func bash(_ commands: [CommandSpec]) -> String {
        var out = """
        # bash completion for mathaloud (made by `mathaloud completion bash`)
        _mathaloud() {
          local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="${COMP_WORDS[1]}"
          if [[ $COMP_CWORD -eq 1 ]]; then
            COMPREPLY=($(compgen -W "\((commands.map(\.name) + extraCommands + ["--version"]).joined(separator: " "))" -- "$cur"))
            return
          fi
          case "$command" in

        """
        for spec in commands {
            out += "    \(spec.name))\n      case \"$prev\" in\n"
            for option in spec.options where option.takesValue {
                let pattern = option.names.joined(separator: "|")
                switch option.completion {
                case .choices: out += "        \(pattern)) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                case .file: out += "        \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                case .directory: out += "        \(pattern)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
                case .none: out += "        \(pattern)) COMPREPLY=(); return ;;\n"
                }
            }
            out += "      esac\n"
            out += "      COMPREPLY=($(compgen -W \"\(spec.options.flatMap(\.names).joined(separator: " "))\" -- \"$cur\")) ;;\n"
        }
        out += """
            completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
            help) COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;
          esac
        }
        complete -F _mathaloud mathaloud

        """
        return out
    }

    // MARK: zsh

    static func zsh(_ commands: [CommandSpec]) -> String {
        var out = """
        #compdef mathaloud
        # zsh completion for mathaloud (made by `mathaloud completion zsh`)
        _mathaloud() {
          local -a commands
          commands=(

        """
        for spec in commands { out += "    '\(spec.name):\(commandSummary(spec))'\n" }
        out += """
            'completion:print a shell completion script'
            'help:print the help of a command'
          )
          if (( CURRENT == 2 )); then
            _describe 'command' commands
            _arguments '--version[print the version]'
            return
          fi
          case $words[2] in

        """
        for spec in commands {
            out += "    \(spec.name))\n      _arguments \\\n"
            for option in spec.options {
                for name in option.names {
                    var line = "'\(name)[\(short(option.help))]"
                    if let value = option.valueName {
                        let label = short(value).isEmpty ? "value" : short(value).replacingOccurrences(of: " ", with: "_")
                        switch option.completion {
                        case .choices: line += ":\(label):(\(option.choices.joined(separator: " ")))"
                        case .file: line += ":\(label):_files"
                        case .directory: line += ":\(label):_files -/"
                        case .none: line += ":\(label): "
                        }
                    }
                    out += "        \(line)' \\\n"
                }
            }
            out += "        '*:input: '\n      ;;\n"
        }
        out += """
            completion) _values 'shell' bash zsh fish ;;
            help) _values 'command' \(commands.map(\.name).joined(separator: " ")) ;;
          esac
        }
        _mathaloud "$@"

        """
        return out
    }

    // MARK: fish

    static func fish(_ commands: [CommandSpec]) -> String {
        var out = """
        # fish completion for mathaloud (made by `mathaloud completion fish`)
        complete -c mathaloud -f
        complete -c mathaloud -n __fish_use_subcommand -l version -d 'print the version'

        """
        for spec in commands {
            out += "complete -c mathaloud -n __fish_use_subcommand -a \(spec.name) -d '\(commandSummary(spec))'\n"
        }
        out += "complete -c mathaloud -n __fish_use_subcommand -a completion -d 'print a shell completion script'\n"
        out += "complete -c mathaloud -n __fish_use_subcommand -a help -d 'print the help of a command'\n"
        out += "complete -c mathaloud -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n"
        out += "complete -c mathaloud -n '__fish_seen_subcommand_from help' -a '\(commands.map(\.name).joined(separator: " "))'\n"
        for spec in commands {
            for option in spec.options {
                var line = "complete -c mathaloud -n '__fish_seen_subcommand_from \(spec.name)'"
                for name in option.names {
                    if name.hasPrefix("--") { line += " -l \(name.dropFirst(2))" } else { line += " -s \(name.dropFirst())" }
                }
                if option.takesValue {
                    switch option.completion {
                    case .choices: line += " -x -a '\(option.choices.joined(separator: " "))'"
                    case .file: line += " -r -F"
                    case .directory: line += " -x -a '(__fish_complete_directories)'"
                    case .none: line += " -x"
                    }
                }
                out += line + " -d '\(short(option.help))'\n"
            }
        }
        return out
    }
}
