/// The fish script: one `complete` line per command, option and operand.
extension Completions {
  static func fish(_ description: CommandLineDescription) -> String {
    let (program, function, listing, option) = names(description, prefix: "__")
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
        switch CompletionOffer(operand: operand.kind, in: description) {
        case .files: action = " -F"
        case .skus: action = " -a '(\(function)_skus)'"
        case .words(let words): action = " -a '\(words.joined(separator: " "))'"
        case .nothing: action = " -x"
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
    if let kind = option.value?.kind {
      switch CompletionOffer(value: kind) {
      case .files: text += " -r -F"
      case .words(let words): text += " -x -a '\(words.joined(separator: " "))'"
      case .skus, .nothing: text += " -x"
      }
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
}
