/// The zsh script: `_arguments` specs per command, made from the same description.
extension Completions {
  static func zsh(_ description: CommandLineDescription) -> String {
    let (program, function, listing, option) = names(description, prefix: "_")
    var script = """
      #compdef \(program)
      # zsh completion for \(program); made by '\(program) completions zsh'.

      # The SKUs of the catalog this line would use: '\(program) \(listing)' prints one a line.
      \(function)_skus() {
        local catalog="" i
        for ((i = 1; i <= $#words; i++)); do
          case $words[i] in
            \(option)) catalog=${(Q)words[i+1]} ;;
            \(option)=*) catalog=${(Q)words[i]#\(option)=} ;;
          esac
        done
        local -a listing skus
        listing=(\(listing))
        [[ -n $catalog ]] && listing+=(\(option) ${catalog/#\\~/$HOME})
        skus=(${(f)"$($\(function)_program $listing 2>/dev/null)"})
        compadd -S = -- ${skus%% *}
      }

      \(function)() {
        local \(function)_program=${words[1]/#\\~/$HOME}
        local curcontext=$curcontext state line
        local -a commands
        commands=(

      """
    for command in description.commands {
      let name = zshQuoted(command.name, escaping: ":")
      script += "    '\(name):\(zshQuoted(command.abstract, escaping: ""))'\n"
    }
    script += "  )\n  _arguments -C \\\n"
    for option in description.options { script += "    \(zshOption(option)) \\\n" }
    script += """
          '1: :->command' \\
          '*:: :->argument' && return
        case $state in
          command) _describe -t commands '\(program) command' commands ;;
          argument)
            case $line[1] in

      """
    for command in description.commands {
      script += "        \(command.name))\n          _arguments -s"
      for option in command.options { script += " \\\n            \(zshOption(option))" }
      for operand in command.operands {
        let position = operand.isRepeating ? "*" : operand.isOptional ? ":" : ""
        let action = zshAction(CompletionOffer(operand: operand.kind, in: description), function)
        script +=
          " \\\n            '\(position):\(zshQuoted(operand.name, escaping: ":")):\(action)'"
      }
      script += "\n          ;;\n"
    }
    script += """
            esac
            ;;
        esac
      }

      \(function) "$@"

      """
    return script
  }

  /// `'(-q --quiet)'{-q,--quiet}'[Report nothing.]'` or `'--orders=[The file.]:path:_files'`.
  private static func zshOption(_ option: OptionDescription) -> String {
    let help = "[\(zshQuoted(option.help.firstSentence, escaping: "[]"))]"
    var value = ""
    if let described = option.value {
      let action = zshAction(CompletionOffer(value: described.kind), "")
      value = "=\(help):\(zshQuoted(described.name, escaping: ":")):\(action)"
    }
    let spec = value.isEmpty ? help : value
    let exclusive = option.long == OptionDescription.help.long ? "(- *)" : ""
    guard option.names.count > 1 else { return "'\(exclusive)\(option.long)\(spec)'" }
    let names = option.names.joined(separator: " ")
    let group = exclusive.isEmpty ? "(\(names))" : exclusive
    return "'\(group)'{\(option.names.joined(separator: ","))}'\(spec)'"
  }

  private static func zshAction(_ offer: CompletionOffer, _ function: String) -> String {
    switch offer {
    case .files: return "_files"
    case .skus: return "\(function)_skus"
    case .words(let words): return "(\(words.joined(separator: " ")))"
    case .nothing: return " "
    }
  }

  /// Text inside a single-quoted `_arguments` spec, with a backslash before `\` and before
  /// each of `special` (`[]` in a description, `:` in a name).
  private static func zshQuoted(_ text: String, escaping special: String) -> String {
    var quoted = ""
    for character in text {
      if character == "'" {
        quoted += "'\\''"
        continue
      }
      if character == "\\" || special.contains(character) { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted
  }
}
