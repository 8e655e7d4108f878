/// Usage lines and `--help`, made from a description and laid out as swift-argument-parser
/// lays out its help.
package enum HelpText {
  static let width = 80
  /// Where the help of an option or operand starts.
  static let column = 26

  /// `shop place [options] SKU=QTY...`; a command with few options lists each one.
  static func usage(_ command: CommandDescription?, in description: CommandLineDescription)
    -> String
  {
    guard let command else { return "\(description.program) <command> [options]" }
    var words = [description.program, command.name]
    let options = command.options.filter { $0.long != OptionDescription.help.long }
    if options.count > 4 {
      words.append("[options]")
    } else {
      words += options.map { option in
        "[\(option.long)\(option.value.map { " <\($0.name)>" } ?? "")]"
      }
    }
    words += command.operands.map { $0.usage }
    return words.joined(separator: " ")
  }

  /// The help of `command`, or of the program when nil.
  package static func text(for command: CommandDescription?, in description: CommandLineDescription)
    -> String
  {
    guard let command else { return top(description) }
    var text = "OVERVIEW: \(command.abstract)\n\n"
    if !command.discussion.isEmpty { text += wrap(command.discussion, indent: 0) + "\n" }
    text += "USAGE: \(usage(command, in: description))\n\n"
    if !command.operands.isEmpty {
      text += "ARGUMENTS:\n"
      for operand in command.operands { text += entry("<\(operand.name)>", operand.help) }
      text += "\n"
    }
    text += "OPTIONS:\n"
    for option in command.options { text += entry(option) }
    return text + "\n"
  }

  private static func top(_ description: CommandLineDescription) -> String {
    var text = wrap("OVERVIEW: \(description.abstract)", indent: 0) + "\n"
    if !description.discussion.isEmpty { text += wrap(description.discussion, indent: 0) + "\n" }
    text += "USAGE: \(usage(nil, in: description))\n\nOPTIONS:\n"
    for option in description.options { text += entry(option) }
    text += "\nSUBCOMMANDS:\n"
    for command in description.commands { text += entry(command.name, command.abstract) }
    text += "\n  See '\(description.program) help <subcommand>' for detailed help.\n\n"
    return text
  }

  /// An option's entry, with its defaults in the order they are tried, each on a line of its own.
  static func entry(_ option: OptionDescription) -> String {
    var text = entry(option.label, option.help)
    for (index, value) in option.defaults.enumerated() {
      let head = index == 0 ? "(default: " : "else "
      let tail = index == option.defaults.count - 1 ? ")" : ","
      text += wrap(head + value + tail, indent: column)
    }
    return text
  }

  /// `  label        help`, the help wrapped at the column, below the label when it is long.
  static func entry(_ label: String, _ help: String) -> String {
    let head = "  " + label
    let body = wrap(help, indent: column)
    guard head.count < column - 1 else { return head + "\n" + body }
    return head + String(body.dropFirst(head.count))
  }

  /// `text` in lines of at most `width` characters, each indented by `indent` spaces; words
  /// (paths included) are never split.
  static func wrap(_ text: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, indent + line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.map { margin + $0 + "\n" }.joined()
  }
}
