import ShopCore

/// A command line that can't be run, and the command whose usage to show for it.
struct UsageError: ShopError, Equatable {
  let problem: String
  let command: Command?

  init(message: String, command: Command?) {
    self.problem = message
    self.command = command
  }

  var status: ExitStatus { .usage }

  /// The swift-argument-parser layout: the problem, then the usage line and where to read more.
  var message: String {
    let usage = HelpText.usage(command)
    let helpCommand = command.map { "shop \($0.rawValue) --help" } ?? "shop --help"
    return "\(problem)\nUsage: \(usage)\n  See '\(helpCommand)' for more information."
  }
}
