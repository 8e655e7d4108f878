/// The manual page of `shop manual`: roff for `man`, section 1, made from a description, with
/// every command, option, variable, file and exit status.
package enum Manual {
  package static func page(_ description: CommandLineDescription) -> String {
    let program = description.program
    var page = """
      .TH \(program.uppercased()) 1 "" "\(program) \(description.version)" "User Commands"
      .nh
      .SH NAME
      \(program) \\- \(text(description.abstract))
      .SH SYNOPSIS

      """
    page += lines(
      description.commands.map { HelpText.usage($0, in: description) }
        + ["\(program) " + description.options.map { "[\($0.long)]" }.joined(separator: " ")])
    page += ".SH DESCRIPTION\n\(text(description.abstract))\n"
    if !description.discussion.isEmpty { page += ".PP\n\(text(description.discussion))\n" }
    page += ".SH OPTIONS\n"
    for option in description.options { page += item(option) }
    page += ".SH COMMANDS\n"
    for command in description.commands {
      page += ".SS \(program) \(command.name)\n"
      page += lines([HelpText.usage(command, in: description)])
      page += ".PP\n\(text(command.abstract))\n"
      if !command.discussion.isEmpty { page += "\(text(command.discussion))\n" }
      for operand in command.operands {
        page += ".TP\n\\fI\(text(operand.usage))\\fR\n\(text(operand.help))\n"
      }
      for option in command.options { page += item(option) }
    }
    page += ".SH ENVIRONMENT\n"
    for entry in description.environment {
      page += ".TP\n.B \(text(entry.name))\n\(text(entry.text))\n"
    }
    page += ".SH FILES\n"
    for entry in description.files {
      page += ".TP\n\\fI\(text(entry.name))\\fR\n\(text(entry.text))\n"
    }
    page += ".SH EXIT STATUS\n"
    for entry in description.exitStatuses {
      page += ".TP\n.B \(text(entry.name))\n\(text(entry.text))\n"
    }
    return page
  }

  /// `.TP` and `\fB\-q\fR, \fB\-\-quiet\fR \fIpath\fR`, then the help and the defaults.
  private static func item(_ option: OptionDescription) -> String {
    var tag = option.names.map { "\\fB\(text($0))\\fR" }.joined(separator: ", ")
    if let value = option.value { tag += " \\fI\(text(value.name))\\fR" }
    var item = ".TP\n\(tag)\n\(text(option.help))\n"
    if !option.defaults.isEmpty {
      item += "Default: \(text(option.defaults.joined(separator: ", else "))).\n"
    }
    return item
  }

  /// Lines kept as they are, without filling: usage lines.
  private static func lines(_ lines: [String]) -> String {
    ".nf\n" + lines.map { text($0) + "\n" }.joined() + ".fi\n"
  }

  /// Text safe in roff: a backslash is `\e`, a hyphen is `\-` (so that options can be copied),
  /// and a line can't start a request with `.` or `'`.
  static func text(_ plain: String) -> String {
    var escaped = ""
    for character in plain {
      switch character {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      default: escaped.append(character)
      }
    }
    if escaped.first == "." || escaped.first == "'" { escaped = "\\&" + escaped }
    return escaped
  }
}
