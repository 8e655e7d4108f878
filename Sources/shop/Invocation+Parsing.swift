import ShopCore

extension Invocation {
  /// Parses the arguments after the program's name. Options and operands may come in any
  /// order after the command; `--` ends the options; `--name VALUE` and `--name=VALUE` agree.
  init(parsing arguments: [String]) throws(UsageError) {
    guard let first = arguments.first else {
      self = .help(nil)
      return
    }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help":
      self = .help(nil)
    case "--version":
      self = .version
    case "help":
      self = try Invocation.help(rest)
    default:
      guard let command = Command(rawValue: first) else {
        let what = first.hasPrefix("-") ? "unknown option" : "unknown command"
        throw UsageError(message: "\(what) \(CartSyntax.quoted(first.utf8))", command: nil)
      }
      self = try Invocation.parse(command, rest)
    }
  }

  private static func parse(_ command: Command, _ arguments: [String]) throws(UsageError)
    -> Invocation
  {
    var scanner = ArgumentScanner(command: command, arguments: arguments)
    switch command {
    case .place:
      let (options, items) = try placement(&scanner)
      if scanner.wantsHelp { return .help(.place) }
      switch CartSyntax.cart(arguments: items) {
      case .success(let cart): return .place(options, cart)
      case .failure(let error): throw scanner.error("\(error)")
      }
    case .batch:
      let (options, operands) = try placement(&scanner)
      if scanner.wantsHelp { return .help(.batch) }
      guard operands.count <= 1 else {
        throw scanner.error(
          "unexpected argument \(CartSyntax.quoted(operands[1].utf8)): one FILE at most")
      }
      let input = operands.first.flatMap { $0 == "-" ? nil : $0 }
      return .batch(options, input: input)
    case .orders:
      var path: String?
      var listing = Listing.text
      var json = false
      var count = false
      while let option = try scanner.nextOption() {
        switch option {
        case "--orders": path = try scanner.value(for: option)
        case "--json": json = try scanner.flag(option)
        case "--count": count = try scanner.flag(option)
        default: throw scanner.unknown(option)
        }
      }
      let operands = try scanner.operands()
      if scanner.wantsHelp { return .help(.orders) }
      if let operand = operands.first {
        throw scanner.error("unexpected argument \(CartSyntax.quoted(operand.utf8))")
      }
      if json && count { throw scanner.error("--json and --count can't be used together") }
      if json { listing = .json }
      if count { listing = .count }
      return .orders(ordersPath: path, listing: listing)
    case .catalog:
      var path: String?
      var json = false
      while let option = try scanner.nextOption() {
        switch option {
        case "--catalog": path = try scanner.value(for: option)
        case "--json": json = try scanner.flag(option)
        default: throw scanner.unknown(option)
        }
      }
      let operands = try scanner.operands()
      if scanner.wantsHelp { return .help(.catalog) }
      if let operand = operands.first {
        throw scanner.error("unexpected argument \(CartSyntax.quoted(operand.utf8))")
      }
      return .catalog(catalogPath: path, json: json)
    }
  }

  /// `shop help [COMMAND]`; its errors show the top-level usage.
  private static func help(_ arguments: [String]) throws(UsageError) -> Invocation {
    guard arguments.count <= 1 else {
      throw UsageError(message: "too many arguments", command: nil)
    }
    guard let topic = arguments.first, topic != "-h", topic != "--help" else { return .help(nil) }
    guard let command = Command(rawValue: topic) else {
      throw UsageError(message: "unknown command \(CartSyntax.quoted(topic.utf8))", command: nil)
    }
    return .help(command)
  }

  /// The options of `place` and `batch`, and their operands.
  private static func placement(_ scanner: inout ArgumentScanner) throws(UsageError) -> (
    PlacementOptions, [String]
  ) {
    var options = PlacementOptions()
    var quiet = false
    var json = false
    while let option = try scanner.nextOption() {
      switch option {
      case "-q", "--quiet": quiet = try scanner.flag(option)
      case "--json": json = try scanner.flag(option)
      case "--memory": options.memory = try scanner.flag(option)
      case "--catalog": options.catalogPath = try scanner.value(for: option)
      case "--orders": options.ordersPath = try scanner.value(for: option)
      default: throw scanner.unknown(option)
      }
    }
    let operands = try scanner.operands()
    if scanner.wantsHelp { return (options, operands) }
    if quiet && json { throw scanner.error("--quiet and --json can't be used together") }
    if options.memory && options.ordersPath != nil {
      throw scanner.error("--memory and --orders can't be used together")
    }
    options.report = quiet ? .quiet : json ? .json : .text
    return (options, operands)
  }
}

/// Walks a command's arguments, handing out options one at a time and keeping operands
/// (everything that is not an option, and everything after `--`) for the end.
private struct ArgumentScanner {
  let command: Command
  private var arguments: [String]
  private var index = 0
  private var collected: [String] = []
  private var endOfOptions = false
  /// The value glued on with `=` to the option just returned.
  private var attached: String?
  private(set) var wantsHelp = false

  init(command: Command, arguments: [String]) {
    self.command = command
    self.arguments = arguments
  }

  /// The next option's name, or nil when only operands remain; `-h`/`--help` are noted.
  mutating func nextOption() throws(UsageError) -> String? {
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if endOfOptions || argument == "-" || !argument.hasPrefix("-") {
        collected.append(argument)
        continue
      }
      if argument == "--" {
        endOfOptions = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        wantsHelp = true
        continue
      }
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        attached = String(argument[argument.index(after: equals)...])
        return String(argument[..<equals])
      }
      attached = nil
      return argument
    }
    return nil
  }

  /// Every operand, once all options are read.
  mutating func operands() throws(UsageError) -> [String] {
    while try nextOption() != nil {
      throw unknown(arguments[index - 1])
    }
    return collected
  }

  mutating func flag(_ option: String) throws(UsageError) -> Bool {
    if attached != nil { throw error("option '\(option)' takes no value") }
    return true
  }

  mutating func value(for option: String) throws(UsageError) -> String {
    let value: String
    if let attached {
      value = attached
      self.attached = nil
    } else {
      guard index < arguments.count, arguments[index] == "-" || !arguments[index].hasPrefix("-")
      else { throw error("missing value for '\(option) <path>'") }
      value = arguments[index]
      index += 1
    }
    guard !value.isEmpty else { throw error("'\(option)' needs a non-empty path") }
    return value
  }

  func unknown(_ option: String) -> UsageError {
    error("unknown option \(CartSyntax.quoted(option.utf8))")
  }

  func error(_ message: String) -> UsageError {
    UsageError(message: message, command: command)
  }
}
