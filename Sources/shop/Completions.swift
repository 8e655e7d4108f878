/// The completion scripts of `shop completions bash|zsh|fish`, made from a description: the
/// commands, every option, file names where a path goes, and for `place` the SKUs of the catalog
/// the command would use, got by running `shop catalog` with the line's `--catalog`, if any.
enum Completions {
  static func script(for shell: Shell, _ description: CommandLineDescription) -> String {
    switch shell {
    case .bash: return bash(description)
    case .zsh: return zsh(description)
    case .fish: return fish(description)
    }
  }

  // MARK: bash

  static func bash(_ description: CommandLineDescription) -> String {
    let program = description.program
    let function = "_" + identifier(program)
    let (listing, option) = description.skuListing
    var script = """
      # bash completion for \(program); made by '\(program) completions bash'.

      \(function)_files() {
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      }

      # The SKUs of the catalog this line would use: '\(program) \(listing)' prints one a line.
      \(function)_skus() {
        local program=${COMP_WORDS[0]} catalog="" i
        [[ $program == "~/"* ]] && program=$HOME/${program:2}
        for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
          case ${COMP_WORDS[i]} in
            \(option))
              catalog=${COMP_WORDS[i + 1]}
              [[ $catalog == = ]] && catalog=${COMP_WORDS[i + 2]}
              ;;
            \(option)=*) catalog=${COMP_WORDS[i]#\(option)=} ;;
          esac
        done
        # COMP_WORDS holds the words as typed: take off their quotes and backslashes.
        case $catalog in
          \\"*\\") catalog=${catalog:1:${#catalog}-2} ;;
          \\'*\\') catalog=${catalog:1:${#catalog}-2} ;;
          *) catalog=${catalog//\\\\/} ;;
        esac
        [[ $catalog == "~/"* ]] && catalog=$HOME/${catalog:2}
        local listing=(\(listing))
        [[ -n $catalog ]] && listing+=(\(option) "$catalog")
        local sku rest skus=()
        while read -r sku rest; do skus+=("$sku"); done < <("$program" "${listing[@]}" 2>/dev/null)
        compopt -o nospace 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -S = -W "${skus[*]}" -- "$cur")
      }

      \(function)() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev="" command="" i
        ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
        # bash splits --name=value and SKU=QTY at '=': the name is then the word before it.
        local equals=0
        if [[ $cur == = ]]; then
          cur="" equals=1
        elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
          prev=${COMP_WORDS[COMP_CWORD - 2]} equals=1
        fi
        # After SKU= comes a quantity: there is nothing to offer.
        if ((equals)) && [[ $prev != -* ]]; then
          COMPREPLY=()
          return
        fi
        for ((i = 1; i < COMP_CWORD; i++)); do
          case ${COMP_WORDS[i]} in
            -*) ;;
            *) command=${COMP_WORDS[i]} && break ;;
          esac
        done
        COMPREPLY=()
        case $command in
          "")
            if [[ $cur == -* ]]; then
              mapfile -t COMPREPLY < <(compgen -W "\(description.options.flatMap(\.names).joined(separator: " "))" -- "$cur")
            else
              mapfile -t COMPREPLY < <(compgen -W "\(description.commands.map(\.name).joined(separator: " "))" -- "$cur")
            fi
            ;;

      """
    for command in description.commands {
      script += "    \(command.name))\n"
      let valued = command.options.filter { $0.value != nil }
      if !valued.isEmpty {
        script += "      case $prev in\n"
        for option in valued {
          let names = option.names.joined(separator: " | ")
          let action: String
          switch option.value?.kind {
          case .path?: action = "\(function)_files"
          case .word(let words)?:
            action =
              "mapfile -t COMPREPLY < <(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")"
          default: action = ":"
          }
          script += "        \(names)) \(action) && return ;;\n"
        }
        script += "      esac\n"
      }
      let names = command.options.flatMap(\.names).joined(separator: " ")
      script += """
              if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "\(names)" -- "$cur")
              else
                \(bashOperand(command, function, description))
              fi
              ;;

        """
    }
    script += """
        esac
      }

      complete -F \(function) \(program)

      """
    return script
  }

  private static func bashOperand(
    _ command: CommandDescription, _ function: String, _ description: CommandLineDescription
  ) -> String {
    func words(_ words: [String]) -> String {
      "mapfile -t COMPREPLY < <(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")"
    }
    switch command.operands.first?.kind {
    case .path: return "\(function)_files"
    case .item: return "\(function)_skus"
    case .command: return words(description.commands.map(\.name))
    case .word(let list): return words(list)
    case .count, .orderNumber, .time, .reference, nil: return ":"
    }
  }

  // MARK: zsh

  static func zsh(_ description: CommandLineDescription) -> String {
    let program = description.program
    let function = "_" + identifier(program)
    let (listing, option) = description.skuListing
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
        let action: String
        switch operand.kind {
        case .path: action = "_files"
        case .item: action = "\(function)_skus"
        case .command: action = "(\(description.commands.map(\.name).joined(separator: " ")))"
        case .word(let words): action = "(\(words.joined(separator: " ")))"
        case .count, .orderNumber, .time, .reference: action = " "
        }
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
      let action: String
      switch described.kind {
      case .path: action = "_files"
      case .word(let words): action = "(\(words.joined(separator: " ")))"
      default: action = " "
      }
      value = "=\(help):\(zshQuoted(described.name, escaping: ":")):\(action)"
    }
    let spec = value.isEmpty ? help : value
    let exclusive = option.long == OptionDescription.help.long ? "(- *)" : ""
    guard option.names.count > 1 else { return "'\(exclusive)\(option.long)\(spec)'" }
    let names = option.names.joined(separator: " ")
    let group = exclusive.isEmpty ? "(\(names))" : exclusive
    return "'\(group)'{\(option.names.joined(separator: ","))}'\(spec)'"
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

  // MARK: fish

  static func fish(_ description: CommandLineDescription) -> String {
    let program = description.program
    let function = "__" + identifier(program)
    let (listing, option) = description.skuListing
    var script = """
      # fish completion for \(program); made by '\(program) completions fish'.

      # The SKUs of the catalog this line would use: '\(program) \(listing)' prints one a line.
      function \(function)_skus
          set -l words (commandline -opc)
          set -l listing \(listing)
          for i in (seq (count $words))
              switch $words[$i]
                  case \(option)
                      set -l next (math $i + 1)
                      if test $next -le (count $words)
                          set listing \(listing) \(option) $words[$next]
                      end
                  case '\(option)=*'
                      set listing \(listing) \(option) (string replace -- '\(option)=' '' $words[$i])
              end
          end
          command $words[1] $listing 2>/dev/null | string replace -r ' .*' '='
      end

      complete -c \(program) -f

      """
    let top = "-n __fish_use_subcommand"
    for option in description.options {
      script += "complete -c \(program) \(top)\(fishOption(option))\n"
    }
    for command in description.commands {
      script +=
        "complete -c \(program) \(top) -a \(command.name) -d \(fishQuoted(command.abstract))\n"
    }
    for command in description.commands {
      let seen = "-n '__fish_seen_subcommand_from \(command.name)'"
      for option in command.options {
        script += "complete -c \(program) \(seen)\(fishOption(option))\n"
      }
      for operand in command.operands {
        let action: String
        switch operand.kind {
        case .path: action = " -F"
        case .item: action = " -a '(\(function)_skus)'"
        case .command: action = " -a '\(description.commands.map(\.name).joined(separator: " "))'"
        case .word(let words): action = " -a '\(words.joined(separator: " "))'"
        case .count, .orderNumber, .time, .reference: action = " -x"
        }
        script += "complete -c \(program) \(seen)\(action) -d \(fishQuoted(operand.name))\n"
      }
    }
    return script
  }

  /// ` -s q -l quiet -d 'Report nothing.'`, with `-r -F` for a path and `-x` for another value.
  private static func fishOption(_ option: OptionDescription) -> String {
    var text = ""
    if let short = option.short { text += " -s \(short.dropFirst())" }
    text += " -l \(option.long.dropFirst(2))"
    switch option.value?.kind {
    case .path?: text += " -r -F"
    case .word(let words)?: text += " -x -a '\(words.joined(separator: " "))'"
    case .some: text += " -x"
    case nil: break
    }
    return text + " -d \(fishQuoted(option.help.firstSentence))"
  }

  /// A single-quoted fish word: only `\` and `'` are special inside.
  private static func fishQuoted(_ text: String) -> String {
    var quoted = "'"
    for character in text {
      if character == "\\" || character == "'" { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted + "'"
  }

  /// The program's name as a shell function name: letters, digits and `_`.
  private static func identifier(_ name: String) -> String {
    String(
      name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
  }
}
