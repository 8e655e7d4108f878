import ShopConventions
import ShopCore

/// A command line that can't be run, told as swift-argument-parser tells it: the reason, the
/// usage line of the command it was meant for, and where to read more. The command line's own
/// error: the root declares it ends a command as every error does (Sources/shop/Root.swift).
package struct UsageError: Error, Equatable {
  /// One line: what was wrong, such as `unknown option '--jsno': did you mean '--json'?`.
  let reason: String
  /// The usage line of the command, or of `shop` itself.
  let usage: String
  /// `shop place --help`, or `shop --help`.
  let helpCommand: String

  init(reason: String, command: CommandDescription?, in description: CommandLineDescription) {
    self.reason = reason
    self.usage = HelpText.usage(command, in: description)
    let name = command.map { "\(description.program) \($0.name)" } ?? description.program
    self.helpCommand = "\(name) \(OptionDescription.help.long)"
  }

  package var status: ExitStatus { .usage }

  /// Unlike other errors' one line, three lines (without `Error: ` or the last newline): the
  /// reason, the usage line, and the help command, for a user who typed something else.
  package var message: String {
    "\(reason)\nUsage: \(usage)\n  See '\(helpCommand)' for more information."
  }

}
