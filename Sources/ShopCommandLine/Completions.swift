/// The completion scripts of `shop completions bash|zsh|fish`, made from a description: the
/// commands, every option, file names where a path goes, and for `place` the SKUs of the catalog
/// the command would use, got by running `shop catalog` with the line's `--catalog`, if any.
package enum Completions {
  package static func script(for shell: Shell, _ description: CommandLineDescription) -> String {
    switch shell {
    case .bash: return bash(description)
    case .zsh: return zsh(description)
    case .fish: return fish(description)
    }
  }

  // bash here; zsh and fish in Completions+Zsh.swift and Completions+Fish.swift.

  static func bash(_ description: CommandLineDescription) -> String {
    let (program, function, listing, option) = names(description, prefix: "_")
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
          let offer = CompletionOffer(value: option.value?.kind)
          script += "        \(names)) \(bashAction(offer, function)) && return ;;\n"
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
    guard let kind = command.operands.first?.kind else { return ":" }
    return bashAction(CompletionOffer(operand: kind, in: description), function)
  }

  private static func bashAction(_ offer: CompletionOffer, _ function: String) -> String {
    switch offer {
    case .files: return "\(function)_files"
    case .skus: return "\(function)_skus"
    case .words(let words):
      return
        "mapfile -t COMPREPLY < <(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")"
    case .nothing: return ":"
    }
  }

  /// The names every script uses: the program, its function prefix, and the command and
  /// option that list the SKUs of a catalog.
  static func names(_ description: CommandLineDescription, prefix: String) -> (
    program: String, function: String, listing: String, option: String
  ) {
    let (listing, option) = description.skuListing
    return (description.program, prefix + identifier(description.program), listing, option.long)
  }

  /// The program's name as a shell function name: letters, digits and `_`.
  static func identifier(_ name: String) -> String {
    String(
      name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
  }
}
