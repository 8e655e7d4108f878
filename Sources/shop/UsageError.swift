/// A command line that can't be run, and the command whose usage to show for it.
struct UsageError: Error, Equatable {
  let message: String
  let command: Command?

  /// The swift-argument-parser layout: the error, the usage line, where to read more.
  var text: String {
    let usage = HelpText.usage(command)
    let helpCommand = command.map { "shop \($0.rawValue) --help" } ?? "shop --help"
    return "Error: \(message)\nUsage: \(usage)\n  See '\(helpCommand)' for more information.\n"
  }
}
